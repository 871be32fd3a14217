package cli

import (
	"context"
	"testing"

	"ohwatch/client/files"
	"ohwatch/headless"
	"ohwatch/internal/fixtures"
	"ohwatch/serve"
)

// TestWatchTakesTheURLFormsCompareTakes: a conversation named in the URL,
// as /api/conversations/ID or #ID, is watched as with --conversation.
func TestWatchTakesTheURLFormsCompareTakes(t *testing.T) {
	conv, err := files.Load(fixtures.Path(t, fixtures.Echo))
	if err != nil {
		t.Fatal(err)
	}
	srv := serve.New(serve.Options{Speed: 0, FinishConfirmDelay: 1})
	const id = "1f6f2ccc343c43749a75342cea50f197"
	srv.Add(id, conv.Base, conv.Events)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url, err := srv.Start(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, u := range []string{url + "/api/conversations/" + id, url + "/#" + id, url + "/api/conversations/1f6f2ccc-343c-4374-9a75-342cea50f197/"} {
		if code, out, errs := runCmd(t, nil, "watch", u, "--headless", "--watch-timeout", "20s"); code != headless.ExitFinished {
			t.Errorf("watch %s: exit %d\n%s\n%s", u, code, out, errs)
		}
	}
}
