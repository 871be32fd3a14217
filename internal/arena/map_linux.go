package arena

import "golang.org/x/sys/unix"

// mapPopulate asks mmap to make every page of the mapping at once.
const mapPopulate = unix.MAP_POPULATE
