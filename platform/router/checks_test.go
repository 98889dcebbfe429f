package router

import (
	"fmt"
	"reflect"
	"testing"
	"unsafe"

	"github.com/asapjs/fiber-template/platform/problem"
)

type checkedQuery struct {
	Role  string  `query:"role" validate:"omitempty,oneof=admin member guest"`
	Q     string  `query:"q" validate:"max=5"`
	Name  string  `query:"name" validate:"required,min=2"`
	Code  string  `query:"code" validate:"omitempty,len=3"`
	Age   int     `query:"age" validate:"gte=0,lte=150"`
	Level int64   `query:"level" validate:"omitempty,oneof=1 2 3"`
	Score float64 `query:"score" validate:"gt=0,lt=1"`
	Count uint    `query:"count" validate:"required"`
	Flag  bool    `query:"flag" validate:"required"`
}

// TestCompiledChecksAgreeWithTheValidator runs the same inputs through the
// compiled checks and through go-playground/validator and wants the same
// fields and messages.
func TestCompiledChecksAgreeWithTheValidator(t *testing.T) {
	t.Parallel()
	r := &Router{validator: newValidator()}
	plan := newCheckPlan(reflect.TypeFor[checkedQuery]())
	if plan == nil || plan.full {
		t.Fatal("the query type was not compiled")
	}
	valid := checkedQuery{Name: "Ann", Age: 30, Score: 0.5, Count: 1, Flag: true}
	cases := map[string]func(q *checkedQuery){
		"a valid input":              func(q *checkedQuery) {},
		"an empty optional enum":     func(q *checkedQuery) { q.Role = "" },
		"a value outside the enum":   func(q *checkedQuery) { q.Role = "root" },
		"a string over max runes":    func(q *checkedQuery) { q.Q = "ééééééé" },
		"a string at max runes":      func(q *checkedQuery) { q.Q = "ééééé" },
		"a missing required string":  func(q *checkedQuery) { q.Name = "" },
		"a string under min":         func(q *checkedQuery) { q.Name = "A" },
		"a wrong exact length":       func(q *checkedQuery) { q.Code = "ab" },
		"a number below gte":         func(q *checkedQuery) { q.Age = -1 },
		"a number above lte":         func(q *checkedQuery) { q.Age = 151 },
		"a number outside an enum":   func(q *checkedQuery) { q.Level = 4 },
		"a number inside an enum":    func(q *checkedQuery) { q.Level = 2 },
		"a float at an open bound":   func(q *checkedQuery) { q.Score = 1 },
		"a zero required uint":       func(q *checkedQuery) { q.Count = 0 },
		"a false required bool":      func(q *checkedQuery) { q.Flag = false },
		"several failures together":  func(q *checkedQuery) { q.Name, q.Age, q.Role = "", 200, "x" },
		"a float at the lower bound": func(q *checkedQuery) { q.Score = 0 },
	}
	for name, edit := range cases {
		t.Run(name, func(t *testing.T) {
			q := valid
			edit(&q)
			got := fmt.Sprint(fieldErrors(plan.check(r, &q, unsafe.Pointer(&q))))
			want := fmt.Sprint(fieldErrors(r.validate(&q)))
			if got != want {
				t.Fatalf("compiled checks report %s, the validator %s", got, want)
			}
		})
	}
}

func fieldErrors(err error) []problem.FieldError {
	if err == nil {
		return nil
	}
	return err.(*problem.Problem).Errors
}

func TestInputsBeyondTheCompiledSubsetUseTheValidator(t *testing.T) {
	t.Parallel()
	cases := map[string]reflect.Type{
		"an email rule on a query field": reflect.TypeFor[struct {
			E string `query:"e" validate:"email"`
		}](),
		"a rule on a pointer": reflect.TypeFor[struct {
			A *int `query:"a" validate:"omitempty,min=1"`
		}](),
		"a rule on a slice": reflect.TypeFor[struct {
			T []string `query:"t" validate:"max=3"`
		}](),
	}
	for name, typ := range cases {
		t.Run(name, func(t *testing.T) {
			if plan := newCheckPlan(typ); plan == nil || !plan.full {
				t.Fatalf("plan %+v, want the full validator", plan)
			}
		})
	}
	if newCheckPlan(reflect.TypeFor[struct {
		Q string `query:"q"`
	}]()) != nil {
		t.Fatal("an input without rules got a check plan")
	}
}
