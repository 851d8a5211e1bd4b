// Package announce writes the spoken announcements of the blind-player
// relay (FIDE Laws 2018 Appendix D; docs/blind-players.md,
// docs/contract.md §3.5): a move in a position, and the time and move
// count a talking clock gives (D.2.6.1), in English, German and
// Vietnamese. [Speaker] renders a text with espeak-ng.
//
// # Wording
//
// German follows D.2.1 exactly, in its spelling: files Anna, Bella, Cesar,
// David, Eva, Felix, Gustav, Hector; ranks eins, zwei, drei, vier, fuenf,
// sechs, sieben, acht; pieces Koenig, Dame, Turm, Laeufer, Springer,
// Bauer; castling "Kurze Rochade" and "Lange Rochade". The Laws say
// nothing about captures, checks or promotions beyond "announce the piece
// chosen", so the rest is ordinary German chess usage: "schlaegt",
// "en passant", "Umwandlung in Dame", "Schach", "Matt" (spelt like D.2.1,
// ae/oe/ue for the umlauts; [Speaker] restores the umlauts for the voice).
//
// English uses the piece names and the squares as written ("Knight g1 to
// f3", "Pawn e4 takes d5", "Short castling", "check", "checkmate",
// "promotes to Queen").
//
// Vietnamese follows the translator's note to D.2.1 ("Mã f5", "Vua h6":
// ordinary Vietnamese piece names and the squares as written), with the
// usual Vietnamese chess terms: Vua, Hậu, Xe, Tượng, Mã, Tốt; "ăn"
// (takes), "bắt tốt qua đường" (en passant), "phong Hậu" (promotes to
// Queen), "Nhập thành ngắn" / "Nhập thành dài", "chiếu" (check), "chiếu
// hết" (checkmate).
//
// # Styles
//
// [Long] (the default) names the piece, the departure and the destination
// square, the format docs/blind-players.md describes ("Springer Gustav
// eins – Felix drei"): the blind player finds the piece on the tactile
// board without ambiguity. [Short] follows SAN: piece, the file or rank
// that disambiguates when two pieces can go there ("Springer Bella David
// zwei" for Nbd2, "Turm eins Eva zwei" for R1e2), and the destination.
//
// Check and mate are announced unless [Options].OmitCheck is set: D.2.1
// does not ask for them, organisers decide (D.1).
package announce
