// Package compare lines two runs up step by step and says where they part
// and what each cost.
//
// A step is what a person reads a run as: a user message, an action (a
// tool and its arguments) or an agent message. Each side's steps are taken
// from its log along one path (HEAD's unless told otherwise); arguments and
// texts are normalised first (whitespace, ids, absolute temporary paths) so
// that two calls which do the same thing compare equal. The two step
// sequences are aligned with Myers's O(ND) difference algorithm, so one
// step inserted on one side does not push every later pair apart. Events
// both sides hold by identity (a fork keeps the ids of the prefix it
// copied) are shared, not merely alike: the last of them is the report's
// shared_until_event_id.
//
// The package is pure: it reads logs it is given and does no I/O beyond
// writing a report to a writer.
package compare
