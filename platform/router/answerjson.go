package router

import (
	"fmt"

	jsonv2 "github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"
	"github.com/gofiber/fiber/v2"
)

// writeJSON writes v as the response's JSON body, of the content type
// given, with encoding/json's semantics (the bytes of the app's
// JSONEncoder), encoded straight into the response's pooled body buffer:
// Ctx.JSON would marshal into a slice of its own first, an allocation of
// the body's size on every answer. A value that fails to encode leaves no
// part of itself behind.
func writeJSON(fc *fiber.Ctx, v any, contentType string) error {
	resp := fc.Response()
	resp.ResetBody()
	if err := jsonv2.MarshalWrite(resp.BodyWriter(), v, jsonv1.DefaultOptionsV1()); err != nil {
		resp.ResetBody()
		return fmt.Errorf("router: encoding the answer: %w", err)
	}
	resp.Header.SetContentType(contentType)
	return nil
}
