package paging

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// FuzzReadWire: whatever payload readWire reads, encoding/json reads the
// same (a fast path may give a payload to json.Unmarshal, never read one
// differently), and the payloads Encode writes are all read by it.
func FuzzReadWire(f *testing.F) {
	for _, seed := range []string{
		`{"p":3,"l":20,"f":"0123","a":["t:2026-11-27T10:11:12.123456Z","i:481516"],"t":1000000,"x":true,"c":1795000000}`,
		`{"p":0,"l":1,"f":"","a":null}`,
		`{"p":1,"l":3,"f":"x","a":["s:O\"Brien \\ \u003c\u0026\u003e \u2028 é"],"r":true}`,
		`{"p":01,"l":3,"f":"x","a":[]}`,
		`{"p":1,"l":3,"f":"x\/y","a":[]}`,
		`{"p":1, "l":3}`,
		`{"P":1}`,
		`{"p":1,"l":3,"f":"\ud83d\ude00","a":[]}`,
		"{\"p\":1,\"f\":\"\x01\"}",
		"{\"p\":1,\"f\":\"\xff\"}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		var fast wirePosition
		if !readWire(payload, &fast) {
			return
		}
		var slow wirePosition
		if err := json.Unmarshal(payload, &slow); err != nil {
			t.Fatalf("readWire read %q, which encoding/json refuses: %v", payload, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("readWire read %q as %+v, encoding/json as %+v", payload, fast, slow)
		}
	})
}

// FuzzAppendWire: appendWire writes every position's payload byte for
// byte as encoding/json does, whatever its strings hold.
func FuzzAppendWire(f *testing.F) {
	f.Add(3, 20, 1_000_000, int64(1_795_000_000), true, false, false, "0123456789abcdef", "t:2026-11-27T10:11:12.123456Z", "i:481516")
	f.Add(0, 1, 0, int64(0), false, true, true, "", "", "")
	f.Add(-1, -20, -3, int64(-9), false, true, false, "x/y", `s:O"Brien \ <&> `+"\u2028\t\x01 é 😀", "s:\xff\xed\xa0\x80")
	f.Add(1<<62, 5, 7, int64(1)<<62, true, true, false, "\x7f", "s:~", "s:\x00")
	f.Add(2, 3, 4, int64(5), false, false, false, "a&b", "s:a>b", `s:a\b`)
	f.Add(2, 3, 4, int64(5), false, false, false, `a"b`, "s:a<b", "s:\x1f")
	f.Fuzz(func(t *testing.T, page, limit, total int, at int64, exact, row, noAfter bool, filter, a, b string) {
		w := wirePosition{Page: page, Limit: limit, Filter: filter, After: []string{a, b}, Total: total, Exact: exact, At: at, Row: row}
		if noAfter {
			w.After = nil
		}
		want, err := json.Marshal(w)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendWire([]byte("kept"), w); string(got) != "kept"+string(want) {
			t.Fatalf("appendWire wrote %s, encoding/json %s", got[4:], want)
		}
	})
}

// TestEncodedCursorsTakeTheFastPath: the payload of every kind of
// position Encode writes, strings that JSON escapes included, is what
// encoding/json writes, and readWire reads it as encoding/json reads it.
func TestEncodedCursorsTakeTheFastPath(t *testing.T) {
	for _, pos := range []Position{
		benchPosition(),
		{Page: 0, Limit: 1, Filter: "f", After: []any{}},
		{Page: 10, Limit: 20, Filter: "", After: []any{"a name with spaces", int64(0)}},
		{Page: 7, Limit: 50, Filter: "f", After: []any{`O"Brien \ <&> ` + "\u2028\t\n\x01 é 😀", int64(-3)}, Row: true},
		{Page: 2, Limit: 5, Filter: "f", After: []any{1.5, true, time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)}},
	} {
		w, err := wireOf(pos)
		if err != nil {
			t.Fatal(err)
		}
		payload := appendWire(nil, w)
		if want, _ := json.Marshal(w); string(payload) != string(want) {
			t.Errorf("appendWire wrote %s, encoding/json %s", payload, want)
		}
		var got wirePosition
		if !readWire(payload, &got) {
			t.Errorf("readWire does not read %s", payload)
			continue
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("readWire read %s as %+v, want %+v", payload, got, w)
		}
	}
}

// TestReadWire reads payloads of the exact form, and gives back to
// encoding/json any other: cut short, spaced, or with a key it does not
// know.
func TestReadWire(t *testing.T) {
	for _, tc := range []struct {
		payload string
		ok      bool
		want    wirePosition
	}{
		{`{"p":-1,"l":20,"f":"x","a":["i:-7"]}`, true, wirePosition{Page: -1, Limit: 20, Filter: "x", After: []string{"i:-7"}}},
		{`{"p":0,"l":1,"f":"","a":null,"t":3,"x":false,"c":9,"r":true}`, true, wirePosition{Limit: 1, Total: 3, At: 9, Row: true}},
		{`{"p":`, false, wirePosition{}},
		{`{"p":-`, false, wirePosition{}},
		{`{"p":1,"l":3`, false, wirePosition{}},
		{`{"p": 1}`, false, wirePosition{}},
		{`{"p":1,"z":2}`, false, wirePosition{}},
		{`{"p":1}x`, false, wirePosition{}},
		{`{"f":"x\`, false, wirePosition{}},
		{`{"f":"x\"`, false, wirePosition{}},
		{`{"f":"x`, false, wirePosition{}},
		{`{"a":["s:x"`, false, wirePosition{}},
	} {
		var got wirePosition
		if ok := readWire([]byte(tc.payload), &got); ok != tc.ok || (ok && !reflect.DeepEqual(got, tc.want)) {
			t.Errorf("readWire(%s) = %+v, %t; want %+v, %t", tc.payload, got, ok, tc.want, tc.ok)
		}
	}
}

// TestDecodeReadsAnySignedJSONOfAPosition: a signed payload that is a
// position's JSON in another form than Encode's (spaced, its keys in
// another order) decodes as encoding/json reads it, and one that is no
// JSON is refused.
func TestDecodeReadsAnySignedJSONOfAPosition(t *testing.T) {
	c, err := NewCursors([]byte("wire test"))
	if err != nil {
		t.Fatal(err)
	}
	layout := Layout{Keys: []Kind{KindInt}}
	pos, err := c.Decode(c.seal([]byte(`{ "a": ["i:42"], "l": 5, "p": 2, "f": "x" }`)), layout)
	if err != nil || pos.Page != 2 || pos.Limit != 5 || pos.Filter != "x" || !reflect.DeepEqual(pos.After, []any{int64(42)}) {
		t.Errorf("a spaced payload decodes to %+v, %v; want page 2 of 5 after 42", pos, err)
	}
	if _, err := c.Decode(c.seal([]byte(`{"p":2,"l":5,"f":"x","a":["i:42"]`)), layout); err == nil {
		t.Error("a signed payload that is no JSON decodes")
	}
}
