package model_test

import (
	"reflect"
	"slices"
	"testing"

	"ohwatch/gen"
	"ohwatch/internal/arena"
	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// aliases lists the strings reachable from v whose bytes lie in raw.
func aliases(v reflect.Value, raw []byte, path string, out *[]string) {
	lo := arena.Addr(raw)
	hi := lo + uintptr(len(raw))
	switch v.Kind() {
	case reflect.String:
		// An empty string counts too: one that still points into raw
		// keeps all of raw's block alive.
		if p := arena.StringAddr(v.String()); p >= lo && p < hi {
			*out = append(*out, path)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			aliases(v.Elem(), raw, path, out)
		}
	case reflect.Struct:
		for k := range v.NumField() {
			if name := v.Type().Field(k).Name; name != "Raw" {
				aliases(v.Field(k), raw, path+"."+name, out)
			}
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for k := range v.Len() {
			aliases(v.Index(k), raw, path+"[]", out)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			aliases(it.Key(), raw, path+"{key}", out)
			aliases(it.Value(), raw, path+"{}", out)
		}
	}
}

func TestDetachedSharesNothingWithRaw(t *testing.T) {
	t.Parallel()
	evs := testevents.GeneratedWith(t, gen.Options{Events: 3000, Seed: 5, Branches: 2})
	aliased := 0
	for k, ev := range evs {
		var before []string
		aliases(reflect.ValueOf(ev), ev.Raw, "ev", &before)
		if len(before) > 0 {
			aliased++
		}
		d := ev.Detached()
		if !reflect.DeepEqual(d, ev) {
			t.Fatalf("event %d (%s): detached %+v, want %+v", k, ev.Kind, d, ev)
		}
		var left []string
		aliases(reflect.ValueOf(d), ev.Raw, "ev", &left)
		if len(left) > 0 {
			t.Fatalf("event %d (%s): still in Raw after Detached: %v", k, ev.Kind, left)
		}
		var after []string
		aliases(reflect.ValueOf(ev), ev.Raw, "ev", &after)
		slices.Sort(before)
		slices.Sort(after)
		if !reflect.DeepEqual(after, before) {
			t.Fatalf("event %d (%s): Detached changed the original: %v, was %v", k, ev.Kind, after, before)
		}
	}
	// Decode aliases Raw for its ids and names: there was something to do.
	if aliased < len(evs)/2 {
		t.Fatalf("only %d of %d decoded events share Raw's memory", aliased, len(evs))
	}
}

func TestDetachedStatsUpdate(t *testing.T) {
	t.Parallel()
	raw := []byte(`{"kind":"ConversationStateUpdateEvent","id":"5d6e0c1a-2b3c-4d5e-8f90-1a2b3c4d5e6f","timestamp":"2026-02-01T10:00:00","source":"environment","key":"stats","value":{"usage_to_metrics":{"agent":{"model_name":"claude-x","accumulated_cost":0.5,"accumulated_token_usage":{"model":"claude-x","prompt_tokens":10,"completion_tokens":2,"response_id":"resp-1"},"costs":[{"model":"claude-x","cost":0.5,"timestamp":1.0}],"response_latencies":[{"model":"claude-x","latency":1.5,"response_id":"resp-1"}],"token_usages":[{"model":"claude-x","prompt_tokens":10,"completion_tokens":2,"response_id":"resp-1"}]}}}}`)
	ev, err := model.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	if u, ok := ev.Body.(*model.StateUpdate); !ok || u.Stats == nil {
		t.Fatalf("body %#v", ev.Body)
	}
	d := ev.Detached()
	if !reflect.DeepEqual(d, ev) {
		t.Fatalf("detached %+v, want %+v", d, ev)
	}
	var left []string
	aliases(reflect.ValueOf(d), raw, "ev", &left)
	if len(left) > 0 {
		t.Fatalf("still in Raw: %v", left)
	}
}

func TestFormatUUIDReadsBackPackUUID(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"5d6e0c1a-2b3c-4d5e-8f90-1a2b3c4d5e6f", "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff"} {
		hi, lo, ok := model.PackUUID(id)
		if !ok || model.FormatUUID(hi, lo) != id {
			t.Fatalf("%s: packed %v, formatted %s", id, ok, model.FormatUUID(hi, lo))
		}
	}
	if _, _, ok := model.PackUUID("5D6E0C1A-2B3C-4D5E-8F90-1A2B3C4D5E6F"); ok {
		t.Fatal("upper case packed: it would not read back the same")
	}
}

// TestDetachingAStatsUpdateLeavesItsBody: a stats update's strings that
// are not its header (usage and model names) come from the decoder's name
// cache, so detaching one copies its header's id and leaves its body, the
// bulk of it, as it is, sharing nothing with Raw either way.
func TestDetachingAStatsUpdateLeavesItsBody(t *testing.T) {
	t.Parallel()
	raw := []byte(`{"kind":"ConversationStateUpdateEvent","id":"5d6e0c1a-2b3c-4d5e-8f90-1a2b3c4d5e6f","timestamp":"2026-02-01T10:00:00","source":"environment","key":"stats","value":{"usage_to_metrics":{"condenser":{"model_name":"litellm_proxy/claude-x","accumulated_cost":0.5,"accumulated_token_usage":{"model":"litellm_proxy/claude-x","prompt_tokens":10}},"agent":{"model_name":"litellm_proxy/claude-y","accumulated_cost":1}}}}`)
	ev, err := model.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	d := ev.Detached()
	if d.Body != ev.Body {
		t.Error("the body was copied: one of its strings shares Raw's memory")
	}
	if arena.SameString(d.ID, ev.ID) {
		t.Error("the id was not copied out of Raw")
	}
	var left []string
	aliases(reflect.ValueOf(d), raw, "ev", &left)
	if len(left) > 0 {
		t.Fatalf("still in Raw: %v", left)
	}
}

// TestBaseStateDetachedSharesNothingWithRaw: a listed conversation's base
// state, detached, keeps none of its item's bytes (a kept id or model name
// kept the whole item: kilobytes per listed conversation), drops Raw, says
// the same, and leaves the original as it was.
func TestBaseStateDetachedSharesNothingWithRaw(t *testing.T) {
	raw := []byte(`{"id":"085fb318-0eb4-47fb-9bfe-ef5345479700","title":"Fix the cache","execution_status":"finished",` +
		`"confirmation_policy":{"kind":"NeverConfirm"},"leaf_event_id":"0c3138a7-4ead-415c-96cf-93ade4d9740c",` +
		`"stats":{"usage_to_metrics":{"fake-llm":{"model_name":"openai/fake-scripted","accumulated_cost":0.0375,` +
		`"accumulated_token_usage":{"model":"openai/fake-scripted","prompt_tokens":4200,"completion_tokens":270,"response_id":""},` +
		`"costs":[{"model":"openai/fake-scripted","cost":0.0125,"timestamp":1796629361.66}],` +
		`"response_latencies":[{"model":"openai/fake-scripted","latency":0.1,"response_id":"fake-cec4947a7182"}],` +
		`"token_usages":[{"model":"openai/fake-scripted","prompt_tokens":1000,"completion_tokens":50,"response_id":"fake-cec4947a7182"}]}}}}`)
	b, err := model.DecodeBaseState(raw)
	if err != nil {
		t.Fatal(err)
	}
	var before []string
	aliases(reflect.ValueOf(b), raw, "b", &before)
	if len(before) == 0 {
		t.Fatal("the decoded base state shares nothing with its bytes: nothing to test")
	}
	d := b.Detached()
	if d.Raw != nil {
		t.Error("the detached base state keeps Raw")
	}
	var left []string
	aliases(reflect.ValueOf(d), raw, "b", &left)
	if len(left) > 0 {
		t.Errorf("still in the item's bytes after Detached: %v", left)
	}
	want := *b
	want.Raw = nil
	if !reflect.DeepEqual(*d, want) {
		t.Errorf("detached %+v, want %+v", *d, want)
	}
	var after []string
	aliases(reflect.ValueOf(b), raw, "b", &after)
	if !reflect.DeepEqual(after, before) || b.Raw == nil {
		t.Errorf("Detached changed the original: %v, was %v", after, before)
	}
}
