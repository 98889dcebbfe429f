package paging_test

import (
	"encoding/json"
	"testing"

	"github.com/asapjs/fiber-template/platform/paging"
)

// Layouts of the tests: a list by id, one sorted by created_at then id, and
// one sorted by name then id, which may name a row by its id.
var (
	byID      = paging.Layout{Keys: []paging.Kind{paging.KindInt}, Row: []paging.Kind{paging.KindInt}}
	byCreated = paging.Layout{Keys: []paging.Kind{paging.KindTime, paging.KindInt}, Row: []paging.Kind{paging.KindInt}}
	byName    = paging.Layout{Keys: []paging.Kind{paging.KindString, paging.KindInt}, Row: []paging.Kind{paging.KindInt}}
)

// forge is a cursor signed by cursors whose sort key values are members,
// as the cursor carries them ("i:42", "s:text"), naming a row when row is
// set: what a client holding the key could send.
func forge(t testing.TB, cursors *paging.Cursors, row bool, members ...string) string {
	t.Helper()
	payload, err := json.Marshal(map[string]any{"p": 0, "l": 3, "f": "list", "a": members, "r": row})
	if err != nil {
		t.Fatal(err)
	}
	return cursors.Seal(payload)
}

// TestDecodeKeepsToTheLayout decodes cursors signed with the list's own
// key: one whose values are not of its keys' kinds, or that a database
// could not compare with its columns, is the 400 of a cursor the service
// did not issue, however it is signed.
func TestDecodeKeepsToTheLayout(t *testing.T) {
	t.Parallel()
	cursors, err := paging.NewCursors([]byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		layout  paging.Layout
		row     bool
		members []string
		ok      bool
	}{
		{"an id", byID, false, []string{"i:42"}, true},
		{"a text for the id", byID, false, []string{"s:42"}, false},
		{"a bool for the id", byID, false, []string{"b:true"}, false},
		{"a time for the id", byID, false, []string{"t:2024-05-01T12:00:00Z"}, false},
		{"a float for the id", byID, false, []string{"f:42"}, false},
		{"two values for one key", byID, false, []string{"i:42", "i:43"}, false},
		{"no value", byID, false, nil, false},
		{"a time and an id", byCreated, false, []string{"t:2024-05-01T12:00:00.5+02:00", "i:42"}, true},
		{"an id for the time", byCreated, false, []string{"i:1714564800", "i:42"}, false},
		{"a text for the time", byCreated, false, []string{"s:2024-05-01 12:00:00", "i:42"}, false},
		{"a text for the id after the time", byCreated, false, []string{"t:2024-05-01T12:00:00Z", "s:42"}, false},
		{"the year 1", byCreated, false, []string{"t:0001-01-01T00:00:00Z", "i:42"}, true},
		{"the year 0", byCreated, false, []string{"t:0000-06-01T00:00:00Z", "i:42"}, false},
		{"the year 1 east of UTC, the year 0 in UTC", byCreated, false, []string{"t:0001-01-01T00:00:00+01:00", "i:42"}, false},
		{"the year 9999 west of UTC, the year 10000 in UTC", byCreated, false, []string{"t:9999-12-31T23:30:00-01:00", "i:42"}, false},
		{"a name and an id", byName, false, []string{"s:Ada", "i:42"}, true},
		{"an empty name", byName, false, []string{"s:", "i:42"}, true},
		{"a name holding NUL", byName, false, []string{"s:A\x00da", "i:42"}, false},
		{"an id for the name", byName, false, []string{"i:7", "i:42"}, false},
		{"a bool for the name", byName, false, []string{"b:false", "i:42"}, false},
		{"a row by its id", byName, true, []string{"i:42"}, true},
		{"a row by a text", byName, true, []string{"s:42"}, false},
		{"a row by the sort keys' values", byName, true, []string{"s:Ada", "i:42"}, false},
		{"a row of a list that names none", paging.Layout{Keys: byName.Keys}, true, []string{"i:42"}, false},
		{"a cursor of a list without keys", paging.Layout{}, false, []string{"i:42"}, false},
	}
	for _, tt := range tests {
		verdict := "is refused"
		if tt.ok {
			verdict = "is taken"
		}
		t.Run(tt.name+" "+verdict, func(t *testing.T) {
			t.Parallel()
			pos, err := cursors.Decode(forge(t, cursors, tt.row, tt.members...), tt.layout)
			if !tt.ok {
				wantCursorError(t, err)
				return
			}
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			wantLayout(t, pos, tt.layout)
		})
	}
}

// wantLayout checks that the values of pos are of the kinds its layout
// expects, one each.
func wantLayout(t *testing.T, pos paging.Position, layout paging.Layout) {
	t.Helper()
	want := layout.Keys
	if pos.Row {
		want = layout.Row
	}
	if len(pos.After) != len(want) {
		t.Fatalf("Decode = %d values %#v, want %d", len(pos.After), pos.After, len(want))
	}
	for i, v := range pos.After {
		if kind, ok := paging.KindOf(v); !ok || kind != want[i] {
			t.Fatalf("value %d is %#v, want one of %s", i, v, want[i])
		}
	}
}
