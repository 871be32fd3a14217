package model

// MeasureResident is benchmarkResident for the external benchmarks,
// which cannot live in this package: they read the generator, which
// imports it.
var MeasureResident = benchmarkResident

// FastStatsAgrees is fastStatsAgrees for the tests over generated and
// upstream data, which this package's own tests cannot import.
var FastStatsAgrees = fastStatsAgrees
