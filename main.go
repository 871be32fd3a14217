// Command ohwatch watches OpenHands agent conversations live and replays
// recorded ones with time travel. This is only the door: the commands are
// in cli, one conversation's way to the screen in session.
package main

import (
	"os"

	"ohwatch/cli"
)

func main() { os.Exit(cli.Run(os.Args[1:])) }
