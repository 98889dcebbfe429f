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

// TestEncodedCursorsTakeTheFastPath: the payload of every kind of
// position Encode writes, strings that JSON escapes included, is read by
// readWire as encoding/json reads it.
func TestEncodedCursorsTakeTheFastPath(t *testing.T) {
	for _, pos := range []Position{
		benchPosition(),
		{Page: 0, Limit: 1, Filter: "f", After: []any{}},
		{Page: 7, Limit: 50, Filter: "f", After: []any{`O"Brien \ <&> ` + "\u2028\t\n\x01 é 😀", int64(-3)}, Row: true},
		{Page: 2, Limit: 5, Filter: "f", After: []any{1.5, true, time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)}},
	} {
		w, err := wireOf(pos)
		if err != nil {
			t.Fatal(err)
		}
		payload, err := json.Marshal(w)
		if err != nil {
			t.Fatal(err)
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
