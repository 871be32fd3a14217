package reducer

import "syscall"

// mapPopulate asks mmap to make every page of the mapping at once.
const mapPopulate = syscall.MAP_POPULATE
