// Package docs serves the interactive API documentation: a Swagger UI page
// and every asset it loads, all embedded in the binary so the docs work
// offline and behind firewalls, plus the HTTP Basic authentication guard that
// keeps them private.
//
// The page's Authorize dialog asks an OAuth2 password flow only for the
// user name and password its token endpoint reads (see passwordFlowOnly).
//
// Register mounts the page at {Prefix}/spec-ui.html; the OpenAPI document
// itself is served by whoever owns it (the router) at Config.SpecURL. Guard
// builds the Basic-auth middleware passed as Config.Guard, and Warning is the
// start-up message to log when that protection is turned off.
package docs
