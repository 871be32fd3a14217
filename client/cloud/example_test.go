package cloud_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"

	"ohwatch/client/cloud"
)

// Example shows the wiring of the cloud command: environment, then flags,
// then a session whose sandbox is deleted on the way out — also after
// Ctrl-C, because Close ignores the cancellation of ctx.
func Example() {
	cfg, err := cloud.ConfigFromEnv(os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	fs := flag.NewFlagSet("cloud", flag.ContinueOnError)
	cloud.BindFlags(fs, &cfg)
	if err := fs.Parse(os.Args[1:]); err != nil {
		return
	}
	cfg.OnProgress = func(stage string) { fmt.Fprintln(os.Stderr, stage+"…") }

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	sess, err := cloud.New(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	defer func() {
		if err := sess.Close(ctx); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}()
	target, err := sess.Open(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	// Watch target.AgentServerURL / target.ConversationID with the
	// agent-server client, authenticating with target.SessionKey.
	fmt.Println(target)
}
