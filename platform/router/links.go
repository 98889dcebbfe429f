package router

import (
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/asapjs/fiber-template/platform/paging"
)

// setLinks answers the Link header of a page: rel="next" when a record
// follows (by its cursor when the list issued one, else by page),
// rel="prev" on a page after the first reached by its index, and
// rel="first", before any link the route set already. Both keep the
// request's path, filters (in the request's order) and page size; the
// paging parameters come after the filters, so every page of a list names
// the same first page. The header is built in a buffer on the stack and
// copied into the answer.
func setLinks(c *fiber.Ctx, l paging.Links) {
	args := fasthttp.AcquireArgs()
	defer fasthttp.ReleaseArgs(args)
	c.Context().QueryArgs().CopyTo(args)
	args.Del(paging.PageParam)
	args.Del(paging.CursorParam)
	args.Del(paging.LimitParam)
	// A page reached by cursor took its limit from the cursor: the links
	// state it, after the filters.
	var num [20]byte
	args.AddBytesV(paging.LimitParam, strconv.AppendInt(num[:0], int64(l.Limit), 10))
	var buf [1024]byte
	b := buf[:0]
	path := c.Request().URI().Path()
	// link appends the link rel to the page of the list at cursor, or
	// without one at the page index.
	link := func(rel, cursor string, page int) {
		a := fasthttp.AcquireArgs()
		defer fasthttp.ReleaseArgs(a)
		args.CopyTo(a)
		if cursor != "" {
			// A cursor carries its page and limit.
			a.Del(paging.LimitParam)
			a.Add(paging.CursorParam, cursor)
		} else {
			a.AddBytesV(paging.PageParam, strconv.AppendInt(num[:0], int64(page), 10))
		}
		b = append(appendLink(b, path, a, rel), ", "...)
	}
	if l.HasNext {
		link("next", l.NextCursor, l.Page+1)
	}
	if l.Page > 0 && !c.Context().QueryArgs().Has(paging.CursorParam) {
		// A page reached by its index has the one before it; a page
		// reached by cursor only looks forward.
		link("prev", "", l.Page-1)
	}
	b = appendLink(b, path, args, "first")
	// A link the route set before (its deprecation's) stays.
	if prev := c.Response().Header.Peek(fiber.HeaderLink); len(prev) > 0 {
		b = append(append(b, ", "...), prev...)
	}
	c.Response().Header.SetBytesV(fiber.HeaderLink, b)
}

// appendLink appends one link-value, <path?query>; rel="rel", to b: the
// query is never empty, as it always states the limit.
func appendLink(b, path []byte, args *fasthttp.Args, rel string) []byte {
	b = append(b, '<')
	b = append(b, path...)
	b = append(b, '?')
	b = args.AppendBytes(b)
	b = append(b, `>; rel="`...)
	b = append(b, rel...)
	return append(b, '"')
}
