package main

import (
	"context"

	"ohwatch/headless"
	"ohwatch/model"
)

// table shows the fleet in the table screen.
func (fl *builtFleet) table(ctx context.Context, env *environment, cfg *fleetConfig, feed <-chan []model.FleetUpdate) int {
	return headless.RunFleet(ctx, feed, env.stdout, headless.FleetOptions{JSON: cfg.json, Until: cfg.until})
}
