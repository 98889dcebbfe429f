package openapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"mime/multipart"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/problem"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// The declarations of a small users API, as a service would write them.
type (
	User struct {
		ID        int64     `json:"id" doc:"User id" example:"1" validate:"required"`
		Email     string    `json:"email" format:"email" example:"ada@example.com" validate:"required"`
		Name      string    `json:"name" validate:"required"`
		Role      string    `json:"role" validate:"required,oneof=admin member"`
		Active    bool      `json:"active" validate:"required"`
		AvatarURL *string   `json:"avatar_url,omitempty" format:"uri" doc:"Avatar image, if uploaded"`
		CreatedAt time.Time `json:"created_at" validate:"required"`
	}

	ListUsersInput struct {
		paging.Query
		Role   string `query:"role" doc:"Only users with this role" validate:"omitempty,oneof=admin member"`
		Search string `query:"q" doc:"Text to find in names and emails" validate:"omitempty,max=100"`
		Active *bool  `query:"active" doc:"Only active or inactive users"`
	}

	GetUserInput struct {
		ID int64 `path:"id" doc:"User id" validate:"required,min=1"`
	}

	CreateUser struct {
		Email    string `json:"email" validate:"required,email"`
		Name     string `json:"name" validate:"required,min=1,max=100"`
		Password string `json:"password" format:"password" validate:"required,min=8,max=72"`
		Role     string `json:"role,omitempty" default:"member" validate:"omitempty,oneof=admin member"`
	}

	CreateUserInput struct {
		Body CreateUser `doc:"The user to create"`
	}

	UpdateUser struct {
		Name *string `json:"name,omitempty" validate:"omitempty,min=1,max=100"`
		Role *string `json:"role,omitempty" validate:"omitempty,oneof=admin member"`
	}

	UpdateUserInput struct {
		ID   int64 `path:"id" doc:"User id"`
		Body UpdateUser
	}

	DeleteUserInput struct {
		ID int64 `path:"id" doc:"User id"`
	}

	UploadAvatar struct {
		File    *multipart.FileHeader `form:"file" doc:"PNG or JPEG image" validate:"required"`
		Caption string                `json:"caption,omitempty" validate:"omitempty,max=200"`
	}

	UploadAvatarInput struct {
		ID   int64 `path:"id" doc:"User id"`
		Body UploadAvatar
	}

	Login struct {
		Username string `json:"username" form:"username" doc:"The user's email" validate:"required,email"`
		Password string `json:"password" form:"password" format:"password" validate:"required"`
	}

	LoginInput struct {
		Body Login
	}

	Token struct {
		AccessToken string `json:"access_token" validate:"required"`
		TokenType   string `json:"token_type" example:"bearer" validate:"required"`
		ExpiresIn   int    `json:"expires_in" format:"int32" doc:"Lifetime in seconds" example:"3600" validate:"required"`
	}

	Health struct {
		Status string `json:"status" validate:"required,oneof=ok"`
	}
)

var (
	errUserNotFound       = problem.Declare(404, "user_not_found", "User not found")
	errUserDeactivated    = problem.Declare(404, "user_deactivated", "User deactivated")
	errEmailTaken         = problem.Declare(409, "email_taken", "Email already registered")
	errLastAdmin          = problem.Declare(409, "last_admin", "The last admin cannot be deleted")
	errForbidden          = problem.Declare(403, "forbidden", "Admin role required")
	errFileTooLarge       = problem.Declare(413, "file_too_large", "File too large")
	errInvalidCredentials = problem.Declare(401, "invalid_credentials", "Invalid email or password")
)

// errs lists declared errors.
func errs(es ...*problem.Error) []*problem.Error { return es }

// usersAPI returns the routes of the users API.
func usersAPI() []openapi.Route {
	return []openapi.Route{
		{
			Method: "GET", Path: "/api/users", Tag: "users", Summary: "List users",
			Description: "Lists users a page at a time, newest first.",
			Input:       reflect.TypeFor[ListUsersInput](), Output: reflect.TypeFor[paging.Page[User]](),
			Errors: errs(errForbidden), Auth: true,
		},
		{
			Method: "GET", Path: "/api/users/:id", Tag: "users", Summary: "Get a user",
			Input: reflect.TypeFor[GetUserInput](), Output: reflect.TypeFor[User](),
			Errors: errs(errUserNotFound, errUserDeactivated), Auth: true,
		},
		{
			Method: "POST", Path: "/api/users", Tag: "users", Summary: "Create a user",
			Input: reflect.TypeFor[CreateUserInput](), Output: reflect.TypeFor[*User](), Status: 201,
			Errors: errs(errEmailTaken, errForbidden), Auth: true,
		},
		{
			Method: "PATCH", Path: "/api/users/:id", Tag: "users", Summary: "Update a user",
			Input: reflect.TypeFor[UpdateUserInput](), Output: reflect.TypeFor[User](),
			Errors: errs(errUserNotFound), Auth: true,
		},
		{
			Method: "DELETE", Path: "/api/users/:id", Tag: "users", Summary: "Delete a user",
			Input: reflect.TypeFor[DeleteUserInput](), Status: 204,
			Errors: errs(errUserNotFound, errLastAdmin), Auth: true,
		},
		{
			Method: "PUT", Path: "/api/users/:id/avatar", Tag: "users", Summary: "Upload an avatar",
			OperationID: "uploadAvatar",
			Deprecation: &openapi.Deprecation{
				Since:  time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
				Sunset: time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC),
				Link:   "https://example.com/changes#avatar",
			},
			Input: reflect.TypeFor[UploadAvatarInput](), BodyContentTypes: []string{openapi.MediaMultipart},
			Output: reflect.TypeFor[User](), Errors: errs(errUserNotFound, errFileTooLarge), Auth: true,
		},
		{
			Method: "POST", Path: "/api/auth/login", Tag: "auth", Summary: "Log in",
			Input:            reflect.TypeFor[LoginInput](),
			BodyContentTypes: []string{openapi.MediaForm, openapi.MediaJSON},
			Output:           reflect.TypeFor[Token](), Errors: errs(errInvalidCredentials),
		},
		{
			Method: "GET", Path: "/health", Tag: "health", Summary: "Check health",
			Output: reflect.TypeFor[Health](),
		},
	}
}

// usersRegistry builds the registry of the users API.
func usersRegistry(t *testing.T) *openapi.Registry {
	t.Helper()
	reg := openapi.New(openapi.Config{
		Title:       "Users API",
		Version:     "1.2.0",
		Description: "Manages the users of the example service.",
		License:     &openapi.License{Name: "MIT", URL: "https://opensource.org/licenses/MIT"},
		ServerURL:   "/api",
		TokenURL:    "/api/auth/login",
		// The built-in maximum is 100; this API allows larger pages.
		MaxLimit: 500,
		TagDescriptions: map[string]string{
			"auth":   "Logging in",
			"health": "Liveness of the service",
			"users":  "The users of the service",
			"unused": "Not listed, as no route has it",
		},
	})
	for _, rt := range usersAPI() {
		if _, _, err := reg.AddRoute(rt); err != nil {
			t.Fatalf("AddRoute(%s %s): %v", rt.Method, rt.Path, err)
		}
	}
	return reg
}

func TestGoldenDocument(t *testing.T) {
	t.Parallel()
	b, err := usersRegistry(t).JSON()
	if err != nil {
		t.Fatalf("JSON: %v", err)
	}
	var got bytes.Buffer
	if err := json.Indent(&got, b, "", "  "); err != nil {
		t.Fatalf("indent: %v", err)
	}
	got.WriteByte('\n')
	path := filepath.Join("testdata", "golden.json")
	if *update {
		if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
			t.Fatalf("update golden file: %v", err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run with -update to create it): %v", err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("document differs from %s (run with -update to accept):\n%s", path, got.Bytes())
	}
}

func TestDocumentIsValidOpenAPI(t *testing.T) {
	t.Parallel()
	b, err := usersRegistry(t).JSON()
	if err != nil {
		t.Fatalf("JSON: %v", err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(b)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("validate: %v", err)
	}
}

var refRE = regexp.MustCompile(`"\$ref":"([^"]*)"`)

func TestDocumentHasNoDanglingRefs(t *testing.T) {
	t.Parallel()
	reg := usersRegistry(t)
	b, err := reg.JSON()
	if err != nil {
		t.Fatalf("JSON: %v", err)
	}
	doc, err := reg.Document()
	if err != nil {
		t.Fatalf("Document: %v", err)
	}
	matches := refRE.FindAllSubmatch(b, -1)
	if len(matches) == 0 {
		t.Fatal("document has no $ref at all")
	}
	for _, m := range matches {
		if name, ok := strings.CutPrefix(string(m[1]), "#/components/headers/"); ok {
			if _, ok := doc.Components.Headers[name]; !ok {
				t.Errorf("ref %s names no component header", m[1])
			}
			continue
		}
		name, err := openapi.NameFromRef(string(m[1]))
		if err != nil {
			t.Errorf("ref %s: %v", m[1], err)
			continue
		}
		if _, ok := doc.Components.Schemas[name]; !ok {
			t.Errorf("ref %s names no component schema", m[1])
		}
	}
}

func TestDocumentIsDeterministic(t *testing.T) {
	t.Parallel()
	first, err := usersRegistry(t).JSON()
	if err != nil {
		t.Fatalf("JSON: %v", err)
	}
	for range 5 {
		again, err := usersRegistry(t).JSON()
		if err != nil {
			t.Fatalf("JSON: %v", err)
		}
		if !bytes.Equal(first, again) {
			t.Fatal("two registries with the same routes built different documents")
		}
	}
}
