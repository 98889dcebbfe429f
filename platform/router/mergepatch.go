package router

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"

	jsonv2 "github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/problem"
)

// MergePatch is a request body that is a JSON merge patch (RFC 7396) of T,
// sent as application/merge-patch+json: the members to change, null for
// the ones to remove. The document gives it the schema "<T>Patch", T's
// members with none required, and the router checks a patch against it
// before the handler runs: a member T does not have is a 400, null for a
// member that is not nullable a 422. The handler applies it to the current
// value with Apply, which checks the result by T's own rules, as a PUT of
// it would be:
//
//	type PatchUserInput struct {
//		ID   int64 `path:"id"`
//		Body router.MergePatch[dto.UpdateUserRequest]
//	}
//
//	req := dto.UpdateRequestOf(current)
//	if err := in.Body.Apply(&req); err != nil {
//		return nil, err // a 422 naming the members that broke T's rules
//	}
//
// Versioned.Patch does this for a conditional write, and answers a patch
// that changes nothing without writing.
type MergePatch[T any] struct {
	members map[string]any
	check   patchChecker
}

// MergePatchTarget returns T: a MergePatch is an openapi.MergePatcher.
func (MergePatch[T]) MergePatchTarget() reflect.Type { return reflect.TypeFor[T]() }

// MarshalJSON writes the patch as the client sent it: what an idempotent
// route's fingerprint digests.
func (p MergePatch[T]) MarshalJSON() ([]byte, error) { return json.Marshal(p.members) }

// Has reports whether the patch names member, to change or to remove it.
func (p *MergePatch[T]) Has(member string) bool {
	_, ok := p.members[member]
	return ok
}

// Apply merges the patch into *dst by RFC 7396: members left out of the
// patch keep their values, null removes a member (a nil pointer or a zero
// value in Go), objects merge member by member, and any other value
// replaces. The result is checked against T's documented schema; when it
// breaks a rule, Apply returns a 422 problem naming the members and leaves
// *dst unchanged.
func (p *MergePatch[T]) Apply(dst *T) error {
	current, err := toJSONValue(dst)
	if err != nil {
		return err
	}
	merged := mergePatch(current, p.members)
	if bad := p.check.check(merged); len(bad) > 0 {
		return violationsProblem(bad)
	}
	raw, err := json.Marshal(merged)
	if err != nil {
		return err
	}
	var out T
	if err := jsonv2.Unmarshal(raw, &out, jsonv2.RejectUnknownMembers(true)); err != nil {
		return jsonProblem(err)
	}
	*dst = out
	return nil
}

// setPatch keeps the members of the checked patch body in the MergePatch
// at dst.
func setPatch(dst reflect.Value, body []byte, check patchChecker) error {
	members, err := decodeJSONValue(body)
	obj, ok := members.(map[string]any)
	if err != nil || !ok {
		return problem.New(http.StatusBadRequest, "A merge patch must be a JSON object.")
	}
	dst.Addr().Interface().(patchSetter).setPatch(obj, check)
	return nil
}

// patchSetter is how the binder fills a MergePatch of any T.
type patchSetter interface {
	setPatch(members map[string]any, check patchChecker)
}

func (p *MergePatch[T]) setPatch(members map[string]any, check patchChecker) {
	p.members, p.check = members, check
}

// patchChecker checks a patched value against the documented schema of the
// patch's target.
type patchChecker struct {
	checker *openapi.Checker
	target  *openapi.Schema
}

func (c patchChecker) check(v any) []openapi.Violation {
	if c.checker == nil {
		return nil
	}
	return c.checker.Check(c.target, v, "", nil)
}

// toJSONValue is v as a decoded JSON value (map[string]any, []any, string,
// json.Number, bool or nil), numbers kept exact.
func toJSONValue(v any) (any, error) {
	// omitempty as the answers are written (encoding/json): a nil pointer
	// is left out, a pointer to "" is the member "". The v2 default left
	// both out, so an empty text read as an absent member: a PATCH of
	// another member removed it, and a PUT of "" over none wrote nothing.
	raw, err := jsonv2.Marshal(v, jsonv1.OmitEmptyWithLegacySemantics(true))
	if err != nil {
		return nil, err
	}
	return decodeJSONValue(raw)
}

// decodeJSONValue decodes a JSON text as toJSONValue returns it.
func decodeJSONValue(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// mergePatch is MergePatch(target, patch) of RFC 7396, section 2.
func mergePatch(target, patch any) any {
	obj, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	t, ok := target.(map[string]any)
	if !ok {
		t = map[string]any{}
	}
	for name, value := range obj {
		if value == nil {
			delete(t, name)
			continue
		}
		t[name] = mergePatch(t[name], value)
	}
	return t
}
