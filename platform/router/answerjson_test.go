package router_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/platform/router"
)

// selfMarshaled writes its own JSON, with the spaces a hand-written
// MarshalJSON may leave in it.
type selfMarshaled struct{}

func (selfMarshaled) MarshalJSON() ([]byte, error) { return []byte(` { "b" : [ 1 , 2 ] } `), nil }

// textKey is a map key that writes itself as text.
type textKey string

func (k textKey) MarshalText() ([]byte, error) { return []byte("key-" + string(k)), nil }

// answerShapes is an answer whose encoding differs between JSON encoders:
// HTML and line separators in text, bytes,
// floats in both notations, nil and empty lists, maps whose keys must be
// sorted, and values that marshal themselves.
type answerShapes struct {
	Text    string              `json:"text"`
	Bytes   []byte              `json:"bytes"`
	Floats  []float64           `json:"floats"`
	Nil     []int               `json:"nil"`
	Empty   []int               `json:"empty"`
	Omitted []int               `json:"omitted,omitempty"`
	Map     map[string]any      `json:"map"`
	Keys    map[textKey]int     `json:"keys"`
	At      time.Time           `json:"at"`
	Self    selfMarshaled       `json:"self"`
	Raw     json.RawMessage     `json:"raw"`
	Number  int64               `json:"number,string"`
	Any     any                 `json:"any"`
	Nested  map[string][]string `json:"nested"`
}

// TestAnswersAreEncodingJSONsBytes: whatever encoder the router writes
// answers with, a client gets the bytes encoding/json writes for the same
// value, the escapes and the order of map keys included. The one
// difference allowed is of a string that is not UTF-8: both write U+FFFD
// for a bad byte, encoding/json as the escape \ufffd.
func TestAnswersAreEncodingJSONsBytes(t *testing.T) {
	t.Parallel()
	value := answerShapes{
		Text:   "<b>Ada & co</b>\u2028\u2029\"quoted\"\t",
		Bytes:  []byte{0, 1, 254, 255},
		Floats: []float64{0, 1e21, 1e-7, 0.000001, 123456789.125, 1.0 / 3},
		Empty:  []int{},
		Map:    map[string]any{"z": 1, "a": []any{nil, true, 1.5}, "m": map[string]int{"b": 2, "a": 1}},
		Keys:   map[textKey]int{"b": 1, "a": 2},
		At:     time.Date(2026, 11, 28, 10, 11, 12, 123456000, time.FixedZone("", 5*3600)),
		Raw:    json.RawMessage(` {"x" : 1} `),
		Number: 42,
		Any:    struct{ A, B int }{1, 2},
		Nested: map[string][]string{"y": {"2"}, "x": nil},
	}
	want, err := json.Marshal(value)
	if err != nil {
		t.Fatal(err)
	}
	r := newRouter(t, router.Config{Controllers: []router.Controller{router.Group{Path: "/j", Declared: []router.Route{
		router.Get("/shapes", func(*router.Ctx, *struct{}) (*answerShapes, error) { return &value, nil }),
	}}}})
	resp, body := get(t, r, "/j/shapes")
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	if !bytes.Equal(body, want) {
		t.Errorf("answered\n%s\nencoding/json writes\n%s", body, want)
	}

	invalid := "bad \xff byte, and a lone \xed\xa0\x80 surrogate"
	r = newRouter(t, router.Config{Controllers: []router.Controller{router.Group{Path: "/j", Declared: []router.Route{
		router.Get("/invalid", func(*router.Ctx, *struct{}) (*string, error) { return &invalid, nil }),
	}}}})
	resp, body = get(t, r, "/j/invalid")
	var got, wantText string
	std, _ := json.Marshal(invalid)
	if err := json.Unmarshal(body, &got); err != nil || resp.StatusCode != 200 {
		t.Fatalf("status %d, body %q: %v", resp.StatusCode, body, err)
	}
	if err := json.Unmarshal(std, &wantText); err != nil {
		t.Fatal(err)
	}
	if got != wantText || !strings.Contains(got, "\ufffd") {
		t.Errorf("a string that is not UTF-8 read back as %q, encoding/json's as %q", got, wantText)
	}
}

// failsHalfway encodes a field, then fails: an answer that breaks off
// after part of it is written.
type failsHalfway struct{}

func (failsHalfway) MarshalJSON() ([]byte, error) { return nil, errors.New("no JSON for this") }

// TestAnswersAreWholeOrAProblem: an answer far larger than the encoder's
// buffer reaches the client as encoding/json writes it, and an answer
// that fails to encode halfway is a 500 problem with none of the answer's
// bytes in it.
func TestAnswersAreWholeOrAProblem(t *testing.T) {
	t.Parallel()
	large := make([]answerShapes, 4000)
	for i := range large {
		large[i] = answerShapes{Text: strings.Repeat("ä<", i%50), Number: int64(i)}
	}
	want, err := json.Marshal(large)
	if err != nil {
		t.Fatal(err)
	}
	broken := struct {
		Before string       `json:"before"`
		Fails  failsHalfway `json:"fails"`
	}{Before: strings.Repeat("written first ", 10_000)}
	r := newRouter(t, router.Config{Controllers: []router.Controller{router.Group{Path: "/j", Declared: []router.Route{
		router.Get("/large", func(*router.Ctx, *struct{}) (*[]answerShapes, error) { return &large, nil }),
		router.Get("/broken", func(*router.Ctx, *struct{}) (*struct {
			Before string       `json:"before"`
			Fails  failsHalfway `json:"fails"`
		}, error) {
			return &broken, nil
		}),
	}}}})
	resp, body := get(t, r, "/j/large")
	if resp.StatusCode != 200 || !bytes.Equal(body, want) {
		t.Errorf("status %d, %d bytes; encoding/json writes %d bytes", resp.StatusCode, len(body), len(want))
	}
	resp, body = get(t, r, "/j/broken")
	wantProblem(t, resp, body, 500)
	if bytes.Contains(body, []byte("written first")) {
		t.Errorf("the problem carries part of the answer that failed: %.80s", body)
	}
}
