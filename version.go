package main

import "ohwatch/headless"

// version is the ohwatch release; set with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

// exitUsage is the exit code for bad flags or arguments.
const exitUsage = headless.ExitUsage
