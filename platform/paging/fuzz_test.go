package paging_test

import (
	"errors"
	"math"
	"testing"

	"github.com/asapjs/fiber-template/platform/paging"
)

// FuzzParse feeds Parse arbitrary page and limit values: it never panics,
// and it either returns paging within the bounds or a FieldError naming
// page or limit.
func FuzzParse(f *testing.F) {
	for _, seed := range [][2]string{{"", ""}, {"0", "20"}, {"3", "100"}, {"-1", "0"}, {"+2", "010"}, {"99999999999999999999", "1e2"}, {"0x10", " 1"}} {
		f.Add([]byte(seed[0]), []byte(seed[1]))
	}
	f.Fuzz(func(t *testing.T, page, limit []byte) {
		const maxLimit = 100
		p, err := paging.Parse(page, limit, maxLimit)
		if err != nil {
			var fe *paging.FieldError
			if !errors.As(err, &fe) || (fe.Field != "page" && fe.Field != "limit") || fe.Message == "" {
				t.Fatalf("Parse(%q, %q) = %v, want a FieldError naming page or limit", page, limit, err)
			}
			return
		}
		if p.Page < 0 || p.Limit < 1 || p.Limit > maxLimit {
			t.Fatalf("Parse(%q, %q) = %+v, out of bounds", page, limit, p)
		}
		if p.Offset() < 0 {
			t.Fatalf("Parse(%q, %q) gives the negative offset %d", page, limit, p.Offset())
		}
	})
}

// FuzzDecode decodes arbitrary cursor payloads signed with the list's key,
// as a client holding it could send, for layouts of every kind: Decode
// never panics, and it either refuses the cursor with the FieldError of
// cursor or yields a position in range whose values are of the layout's
// kinds, one each, and which encodes to a cursor that decodes again.
func FuzzDecode(f *testing.F) {
	for _, seed := range []struct {
		payload string
		keys    []byte
	}{
		{`{"p":0,"l":3,"f":"x","a":["i:42"]}`, []byte{0}},
		{`{"p":0,"l":3,"f":"x","a":["s:42"]}`, []byte{0}},
		{`{"p":0,"l":3,"f":"x","a":["b:true"]}`, []byte{0}},
		{`{"p":0,"l":3,"f":"x","a":["t:2024-05-01T12:00:00Z"]}`, []byte{0}},
		{`{"p":0,"l":3,"f":"x","a":["f:1.5"]}`, []byte{0}},
		{`{"p":0,"l":3,"f":"x","a":["i:42","i:43"]}`, []byte{0}},
		{`{"p":0,"l":3,"f":"x","a":[]}`, []byte{0}},
		{`{"p":1,"l":3,"f":"x","a":["t:2024-05-01T12:00:00.5+02:00","i:42"]}`, []byte{4, 0}},
		{`{"p":1,"l":3,"f":"x","a":["i:1714564800","i:42"]}`, []byte{4, 0}},
		{`{"p":1,"l":3,"f":"x","a":["t:0000-06-01T00:00:00Z","i:42"]}`, []byte{4, 0}},
		{`{"p":1,"l":3,"f":"x","a":["s:Ada","i:42"]}`, []byte{3, 0}},
		{`{"p":1,"l":3,"f":"x","a":["s:A\u0000da","i:42"]}`, []byte{3, 0}},
		{`{"p":1,"l":3,"f":"x","a":["i:7","s:42"]}`, []byte{3, 0}},
		{`{"p":1,"l":3,"f":"x","a":["s:42"],"r":true}`, []byte{3, 0}},
		{`{"p":1,"l":3,"f":"x","a":["i:42"],"r":true}`, []byte{3, 0}},
		{`{"p":1,"l":3,"f":"x","a":["b:1","f:NaN","f:-Inf"],"t":5,"x":true,"c":1714564800}`, []byte{2, 1, 1}},
		{`{"p":-1,"l":0,"f":"x","a":["i:1"]}`, []byte{0}},
		{`{"p":0,"l":3,"f":"x","a":["i:1"],"z":1}`, []byte{0}},
		{`[]`, nil},
	} {
		f.Add([]byte(seed.payload), seed.keys)
	}
	cursors, err := paging.NewCursors([]byte("fuzz secret"))
	if err != nil {
		f.Fatal(err)
	}
	kinds := []paging.Kind{paging.KindInt, paging.KindFloat, paging.KindBool, paging.KindString, paging.KindTime}
	f.Fuzz(func(t *testing.T, payload, keys []byte) {
		// The layout's keys come from keys, one kind a byte; a row is
		// named by the last, as by a list's id.
		var layout paging.Layout
		for _, k := range keys {
			layout.Keys = append(layout.Keys, kinds[int(k)%len(kinds)])
		}
		if len(layout.Keys) > 0 {
			layout.Row = layout.Keys[len(layout.Keys)-1:]
		}
		pos, err := cursors.Decode(cursors.Seal(payload), layout)
		if err != nil {
			var fe *paging.FieldError
			if !errors.As(err, &fe) || fe.Field != "cursor" || fe.Message == "" {
				t.Fatalf("Decode(%q) = %v, want a FieldError naming cursor", payload, err)
			}
			return
		}
		if pos.Page < 0 || pos.Page >= math.MaxInt32 || pos.Limit < 1 {
			t.Fatalf("Decode(%q) = page %d, limit %d: out of range", payload, pos.Page, pos.Limit)
		}
		wantLayout(t, pos, layout)
		again, err := cursors.Encode(pos)
		if err != nil {
			t.Fatalf("Encode(Decode(%q)): %v", payload, err)
		}
		if _, err := cursors.Decode(again, layout); err != nil {
			t.Fatalf("Decode(Encode(Decode(%q))): %v", payload, err)
		}
	})
}
