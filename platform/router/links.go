package router

import (
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/utils"
	"github.com/valyala/bytebufferpool"
	"github.com/valyala/fasthttp"

	"github.com/asapjs/fiber-template/platform/paging"
)

// setLinks answers the Link header of a page: rel="next" when a record
// follows (by its cursor when the list issued one, else by page),
// rel="prev" on a page after the first reached by its index, and
// rel="first", before any link the route set already. Both keep the
// request's path, filters (in the request's order) and page size; the
// paging parameters come after the filters, so every page of a list names
// the same first page. The header is built in a pooled buffer and copied
// into the answer; the filters are written once, for every link.
func setLinks(c *fiber.Ctx, l paging.Links) {
	// The filters: the request's query without its paging parameters.
	args := fasthttp.AcquireArgs()
	c.Context().QueryArgs().CopyTo(args)
	args.Del(paging.PageParam)
	args.Del(paging.CursorParam)
	args.Del(paging.LimitParam)
	var filterBuf [512]byte
	filters := args.AppendBytes(filterBuf[:0])
	fasthttp.ReleaseArgs(args)
	// A pooled buffer rather than one on the stack: fasthttp's header
	// setters do not keep their value, but from its v1.6x releases its
	// escape analysis says they may, which would move a stack buffer to
	// the heap on every page.
	buf := bytebufferpool.Get()
	defer bytebufferpool.Put(buf)
	b := buf.B[:0]
	path := c.Request().URI().Path()
	if l.HasNext {
		b = append(appendLink(b, path, filters, "next", l.NextCursor, l.Limit, l.Page+1), ", "...)
	}
	if l.Page > 0 && !c.Context().QueryArgs().Has(paging.CursorParam) {
		// A page reached by its index has the one before it; a page
		// reached by cursor only looks forward.
		b = append(appendLink(b, path, filters, "prev", "", l.Limit, l.Page-1), ", "...)
	}
	b = appendLink(b, path, filters, "first", "", l.Limit, -1)
	// A link the route set before (its deprecation's) stays.
	if prev := c.Response().Header.Peek(fiber.HeaderLink); len(prev) > 0 {
		b = append(append(b, ", "...), prev...)
	}
	c.Response().Header.SetBytesV(fiber.HeaderLink, b)
	buf.B = b
}

// appendLink appends one link-value, <path?query>; rel="rel", to b. The
// query is the filters, then the cursor, which carries its page and limit,
// or else the limit and, unless it is negative, the page: it is never
// empty, as it always states the limit or the cursor.
func appendLink(b, path, filters []byte, rel, cursor string, limit, page int) []byte {
	b = append(b, '<')
	b = append(b, path...)
	b = append(b, '?')
	b = append(b, filters...)
	if len(filters) > 0 {
		b = append(b, '&')
	}
	if cursor != "" {
		b = append(b, paging.CursorParam+"="...)
		b = fasthttp.AppendQuotedArg(b, utils.UnsafeBytes(cursor))
	} else {
		b = strconv.AppendInt(append(b, paging.LimitParam+"="...), int64(limit), 10)
		if page >= 0 {
			b = strconv.AppendInt(append(b, "&"+paging.PageParam+"="...), int64(page), 10)
		}
	}
	b = append(b, `>; rel="`...)
	b = append(b, rel...)
	return append(b, '"')
}
