package model

// MeasureResident is benchmarkResident for the external benchmarks,
// which cannot live in this package: they read the generator, which
// imports it.
var MeasureResident = benchmarkResident
