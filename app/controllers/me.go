package controllers

import (
	"github.com/asapjs/fiber-template/app/dto"
	"github.com/asapjs/fiber-template/platform/router"
)

// Me is the controller of GET /auth/me, mounted whether the service issues
// its tokens or trusts another issuer's.
type Me struct{}

// NewMe returns the controller of /auth/me.
func NewMe() *Me { return &Me{} }

// BasePath returns "/auth".
func (m *Me) BasePath() string { return "/auth" }

// Tag returns "Auth".
func (m *Me) Tag() string { return "Auth" }

// Routes declares GET /me.
func (m *Me) Routes() []router.Route {
	return []router.Route{
		router.Get("/me", m.me,
			router.Summary("Who the caller is"),
			router.Description("The verified identity of the caller's access token, as this service sees it: subject, "+
				"roles, issuer, audiences, expiry and scope, whichever issuer signed it (this service, or the issuer of "+
				"AUTH_ISSUER)."),
			router.OperationID("getIdentity"),
			router.Auth()),
	}
}

func (m *Me) me(c *router.Ctx, _ *struct{}) (*dto.Identity, error) {
	id := dto.IdentityOf(c.Claims())
	return &id, nil
}
