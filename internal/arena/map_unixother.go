//go:build unix && !linux

package arena

// mapPopulate is Linux's alone; elsewhere pages are made as they are
// touched.
const mapPopulate = 0
