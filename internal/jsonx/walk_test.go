package jsonx

import (
	"fmt"
	"strings"
	"testing"
)

// TestWalkMembersReadsAndSkips walks objects and arrays with whitespace,
// nested values, strings holding the delimiters and empty containers,
// reading some values and leaving others to be skipped, and checks each
// key, each value and where each walk ends.
func TestWalkMembersReadsAndSkips(t *testing.T) {
	data := []byte(` { "a" : 1 , "b":{"c":[1, {"d":"}]\""}], "e" : {} }, "f": [ ] ,"g":"x,y" , "h":null } tail`)
	var got []string
	end := WalkMembers(data, 1, func(key []byte, at int) int {
		switch string(key) {
		case "b":
			return WalkMembers(data, at, func(key []byte, at int) int {
				if string(key) == "c" {
					return WalkElements(data, at, func(at int) int {
						v := ValueAt(data, at)
						got = append(got, "c[]="+string(v))
						return at + len(v)
					})
				}
				got = append(got, "b."+string(key)+" skipped")
				return -1
			})
		case "g", "a":
			v := ValueAt(data, at)
			got = append(got, string(key)+"="+string(v))
			return at + len(v)
		}
		got = append(got, string(key)+" skipped")
		return -1
	})
	want := []string{"a=1", `c[]=1`, `c[]={"d":"}]\""}`, "b.e skipped", "f skipped", `g="x,y"`, "h skipped"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("walk read\n%q\nwant\n%q", got, want)
	}
	if rest := string(data[end:]); rest != " tail" {
		t.Errorf("walk ended before %q, want before \" tail\"", rest)
	}
	for _, empty := range []string{"{}", "{ }", "[]", "[ \n ]"} {
		called := false
		fn := func(at int) int { called = true; return -1 }
		var end int
		if strings.HasPrefix(empty, "{") {
			end = WalkMembers([]byte(empty), 0, func([]byte, int) int { return fn(0) })
		} else {
			end = WalkElements([]byte(empty), 0, fn)
		}
		if called || end != len(empty) {
			t.Errorf("%q: called %v, ended at %d", empty, called, end)
		}
	}
}
