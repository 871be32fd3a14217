// Package redact removes secrets (session and API keys) from text and
// raw JSON in every form a server or a library echoes them in, so that a
// key never reaches a URL, a log line, an error, a recording or the
// screen. A Secrets set belongs to its owner (a session, a client, a
// fleet's feed) and keeps each key's prepared forms for as long as that
// owner lives: there is no cache shared between owners, so a fleet of
// any number of keys prepares each one once (BenchmarkRedactFleet).
package redact
