// Package ruleset holds the named rule sets as data: every parameter of
// docs/configuration.md, "Rule-set overrides", and the technical-error
// count of the BGO 2026 Chess960 section (Reg. §11), with presets for
// the FIDE 2018 and 2001 Laws in standard, rapid and blitz, and the BGO
// 2026 Chess960 section.
//
// A [RuleSet] is a plain value: a variant name plus parameters. The
// adjudicator (package rules/adjudicator) is driven by these parameters and
// never by the name, so a new set (the team variant, xiangqi) is a new
// value, not new code paths keyed on names.
//
// # Lookup and overrides
//
// [Lookup] returns a preset by name; an unknown name is an
// *[UnknownError] listing the valid ones. [RuleSet.WithOverrides] applies
// an event's overrides (a map from the snake_case parameter names of
// docs/configuration.md, as the config package reads them) and names the bad
// key in an *[OverrideError].
//
// # Open questions
//
// Where the Laws leave a choice to the event (A.3 or A.4, Guideline III)
// or the sources are unclear, the preset takes the default documented on
// the field, and an override changes it.
package ruleset
