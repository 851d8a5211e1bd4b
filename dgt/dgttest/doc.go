// Package dgttest gives tests the real DGT traffic of the board captures
// kept beside the repository (see [Dir]): it locates the folder from any
// package of the module, skips the calling test with a message when the
// folder is absent, and decodes a capture into raw board
// messages or typed [dgt.Message] values.
//
// The captures are AGPL data: they are read in place and never copied into
// the repository. Package dgt's own internal tests cannot import this
// package (it imports dgt); they keep their own small loader.
package dgttest
