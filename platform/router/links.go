package router

import (
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/asapjs/fiber-template/platform/paging"
)

// linkedPage is implemented by list answers (*paging.Page): a route whose output
// is one answers an RFC 8288 Link header, which its document declares.
type linkedPage interface{ Links() paging.Links }

// setLinks answers the Link header of a page: rel="next" when a record
// follows (by its cursor when the list issued one, else by page), and
// rel="first". Both keep the request's path, filters and page size.
func setLinks(c *fiber.Ctx, l paging.Links) {
	args := fasthttp.AcquireArgs()
	defer fasthttp.ReleaseArgs(args)
	c.Context().QueryArgs().CopyTo(args)
	args.Del("page")
	args.Del("cursor")
	// A page reached by cursor took its limit from the cursor: the links
	// state it.
	args.Set("limit", strconv.Itoa(l.Limit))
	var b strings.Builder
	if l.HasNext {
		next := fasthttp.AcquireArgs()
		defer fasthttp.ReleaseArgs(next)
		args.CopyTo(next)
		if l.NextCursor != "" {
			// A cursor carries its page and limit.
			next.Del("limit")
			next.Set("cursor", l.NextCursor)
		} else {
			next.Set("page", strconv.Itoa(l.Page+1))
		}
		writeLink(&b, c.Path(), next, "next")
		b.WriteString(", ")
	}
	writeLink(&b, c.Path(), args, "first")
	c.Set(fiber.HeaderLink, b.String())
}

// writeLink writes one link-value: <path?query>; rel="rel".
func writeLink(b *strings.Builder, path string, args *fasthttp.Args, rel string) {
	b.WriteByte('<')
	b.WriteString(path)
	if args.Len() > 0 {
		b.WriteByte('?')
		b.Write(args.QueryString())
	}
	b.WriteString(`>; rel="`)
	b.WriteString(rel)
	b.WriteByte('"')
}
