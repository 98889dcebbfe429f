package openapi_test

import (
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/problem"
)

// GetMemberInput is the input of GET /members/:id.
type GetMemberInput struct {
	ID     int64  `path:"id" doc:"Member id"`
	Fields string `query:"fields" doc:"Fields to answer" validate:"omitempty,max=100"`
}

// Member is the answer of GET /members/:id.
type Member struct {
	ID    int64  `json:"id" doc:"Member id"`
	Email string `json:"email" doc:"Email address" format:"email"`
}

var errMemberNotFound = problem.Declare(404, "member_not_found", "Member not found")

// AddRoute reflects a route's input and output types once: the document
// has the operation under its path template, relative to the server's
// base path, with the input's parameters, the output's schema as a
// component and the declared errors as problem responses.
func ExampleRegistry_AddRoute() {
	reg := openapi.New(openapi.Config{Title: "Members API", ServerURL: "/api"})
	_, in, err := reg.AddRoute(openapi.Route{
		Method:  "GET",
		Path:    "/api/members/:id",
		Summary: "Get a Member",
		Input:   reflect.TypeFor[GetMemberInput](),
		Output:  reflect.TypeFor[Member](),
		Errors:  []*problem.Error{errMemberNotFound},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("bound:", in.Path[0].Name, in.Query[0].Name)

	doc, err := reg.Document()
	if err != nil {
		fmt.Println(err)
		return
	}
	for key, item := range doc.Paths {
		op := item.Get
		fmt.Println(key, op.OperationID)
		for _, p := range op.Parameters {
			fmt.Println(" ", p.In, p.Name, p.Required)
		}
		for _, status := range slices.Sorted(maps.Keys(op.Responses)) {
			fmt.Println(" ", status, op.Responses[status].Description)
		}
		fmt.Println("  200 body:", op.Responses["200"].Content["application/json"].Schema.Ref)
	}
	// Output:
	// bound: id fields
	// /members/{id} getApiMembersById
	//   path id true
	//   query fields false
	//   200 OK
	//   400 Bad Request: malformed input
	//   404 Member not found
	//   422 Unprocessable Entity: validation failed
	//   500 Internal Server Error
	//   200 body: #/components/schemas/Member
}
