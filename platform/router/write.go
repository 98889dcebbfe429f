package router

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"slices"

	"github.com/asapjs/fiber-template/platform/etag"
	"github.com/asapjs/fiber-template/platform/problem"
)

// WriteAttempts is how many times Versioned applies a write that carries no
// If-Match when other writes change the row between its read and its
// write, before it answers ErrEditConflict.
const WriteAttempts = 5

// ErrEditConflict answers a write without If-Match that other writes
// overtook WriteAttempts times in a row; the routes that write with
// Versioned declare it.
var ErrEditConflict = problem.Declare(http.StatusConflict, "edit_conflict", "Edit conflict")

// Versioned is the conditional writes of one resource, whose rows of M
// carry a version that raises with every write and is their entity tag
// (etag.Version), and whose PUT body is B. Its methods do for a handler
// what every such write needs: read the row where the write goes, check
// If-Match against its version (a 412 with the current ETag), apply the
// PUT's body or the merge patch, answer the row as it is when nothing
// changes (no write, the version and ETag kept), and write with the
// version check in the same statement as the write. A write that another
// one overtakes between the read and the write is a 412 when If-Match was
// sent (unless it names the new version too), and is applied again to the
// new row when it was not: WriteAttempts times at most, then
// ErrEditConflict.
//
// The fields are the seam to the repository; a controller sets them once,
// or per request when its rules need the caller:
//
//	writes := router.Versioned[models.Order, dto.UpdateOrderRequest]{
//		Get: func(ctx context.Context, id int64) (*models.Order, error) {
//			return orders.Get(database.OnPrimary(ctx), id)
//		},
//		Version: func(m *models.Order) int64 { return m.Version },
//		Form:    dto.UpdateOrderRequestOf,
//		Row:     dto.UpdateOrderRequest.Over, // the body's fields, current's id
//		Update: func(ctx context.Context, _, m *models.Order, version int64) error {
//			return orders.Update(ctx, m, version) // UPDATE … WHERE id = ? AND version = ?
//		},
//	}
//
//	func (c *Orders) patch(rc *router.Ctx, in *PatchOrderInput) (*dto.Order, error) {
//		m, err := c.writes.Patch(rc, in.ID, &in.Body)
//		return orderAnswer(m, err) // m in its API form, or the error to answer
//	}
//
// The route's input embeds IfMatchHeader (the 412), and the route declares
// ErrEditConflict. The errors of the callbacks (a row not found) come back
// as they are, for the handler to answer.
type Versioned[M, B any] struct {
	// Get reads the row with the id as it is now, where the write goes
	// (the primary, when reads may go to a replica).
	Get func(ctx context.Context, id int64) (*M, error)
	// Version is the version of a row.
	Version func(row *M) int64
	// Form is the body of a PUT that leaves the row as it is: what a merge
	// patch applies to, and, compared as JSON (SameJSON), what tells
	// whether a write changes anything.
	Form func(row M) B
	// Row is the row that body makes of current, with current's id and
	// whatever the body does not carry. Its error (a 422, a 403) is the
	// answer.
	Row func(body B, current *M) (*M, error)
	// Update writes next over current only while the row is at version,
	// checked in the same statement as the write (UPDATE … WHERE version =
	// ?), and reads the row back into next. A row at another version is an
	// error that is a StaleWrite: nothing was written.
	Update func(ctx context.Context, current, next *M, version int64) error
}

// StaleWrite is the error of a conditional write that found its row at
// another version than the ones it was given, and so wrote nothing. A
// repository's error type implements it for Versioned to tell a lost race
// from a failure.
type StaleWrite interface {
	error
	// CurrentVersion is the version the row is at now.
	CurrentVersion() int64
}

// Current reads the row with the id and checks it against the request's
// If-Match: the row, or the 412 carrying its ETag when If-Match names
// another version. A handler that must do something between the check
// and a Delete (end a user's sessions) calls it first.
func (v *Versioned[M, B]) Current(rc *Ctx, id int64) (*M, error) {
	return v.current(rc, id, rc.IfMatch().Versions())
}

// Put replaces the row with the id by body, as described on Versioned,
// and returns the row written, or the row as it is when body changes
// nothing.
func (v *Versioned[M, B]) Put(rc *Ctx, id int64, body B) (*M, error) {
	return v.write(rc, id, func(current *M) (*M, error) { return v.Row(body, current) })
}

// Patch applies the merge patch to the row with the id, as described on
// Versioned: to its Form, whose result must pass B's rules as a PUT's body
// would. It returns the row written, or the row as it is when the patch
// changes nothing.
func (v *Versioned[M, B]) Patch(rc *Ctx, id int64, patch *MergePatch[B]) (*M, error) {
	return v.write(rc, id, func(current *M) (*M, error) {
		body := v.Form(*current)
		if err := patch.Apply(&body); err != nil {
			return nil, err
		}
		return v.Row(body, current)
	})
}

// Delete deletes the row with the id by remove, which gets the versions
// If-Match names (none: any) to check in the same statement as the delete:
// a StaleWrite it returns is the 412 with the current ETag. It reads
// nothing first; Current does.
func (v *Versioned[M, B]) Delete(rc *Ctx, id int64, remove func(ctx context.Context, id int64, versions ...int64) error) error {
	err := remove(rc.Context(), id, rc.IfMatch().Versions()...)
	if stale, ok := errors.AsType[StaleWrite](err); ok {
		return rc.PreconditionFailed(etag.Version(stale.CurrentVersion()))
	}
	return err
}

// current reads the row with the id and checks it against the If-Match
// versions (nil: any).
func (v *Versioned[M, B]) current(rc *Ctx, id int64, versions []int64) (*M, error) {
	current, err := v.Get(rc.Context(), id)
	if err != nil {
		return nil, err
	}
	if version := v.Version(current); versions != nil && !slices.Contains(versions, version) {
		return nil, rc.PreconditionFailed(etag.Version(version))
	}
	return current, nil
}

// write reads the row, checks If-Match, makes the next row with change
// and writes it over the version read, again after a lost race while
// If-Match still holds, as described on Versioned.
func (v *Versioned[M, B]) write(rc *Ctx, id int64, change func(current *M) (*M, error)) (*M, error) {
	versions := rc.IfMatch().Versions()
	for attempt := 1; ; attempt++ {
		current, err := v.current(rc, id, versions)
		if err != nil {
			return nil, err
		}
		next, err := change(current)
		if err != nil {
			return nil, err
		}
		if same, err := SameJSON(v.Form(*current), v.Form(*next)); err != nil || same {
			// Nothing changes: the row as read is the answer, so that
			// caches and other writers are not told of a change there was not.
			return current, err
		}
		err = v.Update(rc.Context(), current, next, v.Version(current))
		stale, ok := errors.AsType[StaleWrite](err)
		switch {
		case !ok && err != nil:
			return nil, err
		case !ok:
			return next, nil
		case versions != nil && !slices.Contains(versions, stale.CurrentVersion()):
			// The client's precondition no longer holds: never a retry.
			return nil, rc.PreconditionFailed(etag.Version(stale.CurrentVersion()))
		case attempt == WriteAttempts:
			return nil, ErrEditConflict.WithDetail("The resource kept changing while the write was applied; send it again.")
		}
	}
}

// SameJSON reports whether a and b are the same JSON value: Versioned's
// test of a write that changes nothing, so that it answers the resource as
// it is, without a write or a new version. Numbers compare by their text,
// members whatever their order.
func SameJSON(a, b any) (bool, error) {
	if reflect.DeepEqual(a, b) {
		// Equal values encode alike: the no-op answered without encoding.
		return true, nil
	}
	av, err := toJSONValue(a)
	if err != nil {
		return false, err
	}
	bv, err := toJSONValue(b)
	if err != nil {
		return false, err
	}
	return reflect.DeepEqual(av, bv), nil
}
