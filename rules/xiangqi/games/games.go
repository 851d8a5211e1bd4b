// Package games holds real xiangqi games under a free licence for demos
// and tests: twelve master games from the Chinese Chess Practical Dataset
// (CCPD) by Yu-Han Tseng (2026,
// https://github.com/Yvonne761/Chinese-Chess-Practical-Dataset, commit
// 368a47a9), licensed under Creative Commons Attribution 4.0
// International (CC BY 4.0). They were converted from the dataset's
// Chinese notation (Big5 text) to PGN with WXF movetext and [%iccs]
// commands (docs/contract.md §6), Red written as White and dates
// normalised; each game's Source tag names its file in the dataset. The
// attribution heads the file as PGN escape lines. See PROVENANCE.md.
//
// The games are four wins for Red, four for Black and four draws, of 53 to
// 170 plies, played from 1963 to 2007 by Lü Qin (呂欽), Xu Yinchuan (許銀川),
// Hu Ronghua (胡榮華) and their opponents. Two of them hold a repetition
// the Art. 22–24 rules judge, which the players then broke: game 11 (Red
// chases one piece with a cannon three times, then changes) and game 12
// (Red's horse checks perpetually while Black's answers chase, and Red
// changes, as the checker must).
package games

import _ "embed"

// CCPD is the PGN text of the twelve games (UTF-8), read with rules/pgn.
//
//go:embed ccpd.pgn
var CCPD string

// Count is the number of games in CCPD.
const Count = 12
