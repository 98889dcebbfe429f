package controllers_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/app/controllers"
)

func TestNormalizeEmail(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, in, want string
		err            error
	}{
		{"lower case is kept", "admin@x.test", "admin@x.test", nil},
		{"upper case is folded", "Admin@X.Test", "admin@x.test", nil},
		{"surrounding blanks are removed", "  admin@x.test\t", "admin@x.test", nil},
		{"fullwidth letters are their plain form", "ａdmin@x.test", "admin@x.test", nil},
		{"fullwidth capitals are folded", "ＡＤＭＩＮ@x.test", "admin@x.test", nil},
		{"a fullwidth domain is its plain form", "admin@ｘ.ＴＥＳＴ", "admin@x.test", nil},
		{"sharp s is folded to ss", "Straße@x.test", "strasse@x.test", nil},
		{"a ligature is its letters", "ﬁnn@x.test", "finn@x.test", nil},
		{"a combining accent is composed", "jose\u0301@x.test", "josé@x.test", nil},
		{"dots, plus and digits are kept", "first.last+tag-1@x.test", "first.last+tag-1@x.test", nil},
		{"one script other than Latin", "ИВАН@x.test", "иван@x.test", nil},
		{"Greek alone", "ΑΛΦΑ@x.test", "αλφα@x.test", nil},
		{"Japanese mixes Han, kana and Latin", "山田たろうTaro@x.test", "山田たろうtaro@x.test", nil},
		{"an international domain is written in ASCII", "ada@Bücher.Test", "ada@xn--bcher-kva.test", nil},
		{"Cyrillic а among Latin letters", "аdmin@x.test", "", controllers.ErrEmailMixedScripts},
		{"Greek α among Latin letters", "pαypal@x.test", "", controllers.ErrEmailMixedScripts},
		{"Cyrillic and Greek", "аα@x.test", "", controllers.ErrEmailMixedScripts},
		{"Cyrillic after a, the first Latin letter", "aд@x.test", "", controllers.ErrEmailMixedScripts},
		{"Cyrillic after z, the last Latin letter", "zд@x.test", "", controllers.ErrEmailMixedScripts},
		{"Cyrillic after capital A", "Aд@x.test", "", controllers.ErrEmailMixedScripts},
		{"Cyrillic after capital Z", "Zд@x.test", "", controllers.ErrEmailMixedScripts},
		{"Cyrillic beside the ASCII signs around the letters", "д@[`{~1@x.test", "д@[`{~1@x.test", nil},
		{"a one-letter local part", "a@x.test", "a@x.test", nil},
		{"exactly 254 bytes once normalised", strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 56) + ".test", strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 56) + ".test", nil},
		{"255 bytes once normalised", strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 57) + ".test", "", controllers.ErrEmailInvalid},
		{"an @ last", "admin@x.test@", "", controllers.ErrEmailInvalid},
		{"no @", "admin", "", controllers.ErrEmailInvalid},
		{"no local part", "@x.test", "", controllers.ErrEmailInvalid},
		{"no domain", "admin@", "", controllers.ErrEmailInvalid},
		{"a space in the local part", "ad min@x.test", "", controllers.ErrEmailInvalid},
		{"an emoji in the local part", "ad😀min@x.test", "", controllers.ErrEmailInvalid},
		{"an empty label in the domain", "admin@x..test", "", controllers.ErrEmailInvalid},
		{"an underscore in the domain", "admin@x_y.test", "", controllers.ErrEmailInvalid},
		{"longer than 254 bytes once normalised", strings.Repeat("㍿", 20) + "@" + strings.Repeat("a", 15) + ".test", "", controllers.ErrEmailInvalid},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := controllers.NormalizeEmail(tt.in)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("NormalizeEmail(%q) = %q, %v; want error %v", tt.in, got, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("NormalizeEmail(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
			if again, err := controllers.NormalizeEmail(got); err != nil || again != got {
				t.Fatalf("not stable: NormalizeEmail(%q) = %q, %v", got, again, err)
			}
		})
	}
}
