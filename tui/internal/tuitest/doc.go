// Package tuitest holds the test helpers the screen packages share:
// fixture logs, key messages, the names of commands that would wait, and
// a waiter on a test terminal. Tests only.
package tuitest
