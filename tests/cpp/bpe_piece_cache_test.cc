// The tokenizer's piece cache: what it finds is what was stored (checked against a std::map), and it stays
// within its bounds however many pieces come, then frees its memory when cleared.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "bpe/piece_cache.h"
#include "random/prng.h"

using embedlab::PieceCache;
using Ids = std::vector<uint32_t>;

namespace {

// A random piece of 1 to max_bytes bytes over a small alphabet (so that pieces repeat) and its made-up ids.
std::string RandomPiece(embedlab::Prng* prng, size_t max_bytes) {
  std::string piece(1 + prng->NextU32() % max_bytes, ' ');
  for (char& c : piece) c = static_cast<char>('a' + prng->NextU32() % 3);
  return piece;
}

Ids IdsOf(embedlab::Prng* prng, const std::string& piece) {
  Ids ids(1 + prng->NextU32() % piece.size());
  for (uint32_t& id : ids) id = prng->NextU32();
  return ids;
}

}  // namespace

TEST_CASE("PieceCache: finds exactly what was stored, pieces of every length", "[tokenizer]") {
  embedlab::Prng prng(41);
  PieceCache cache;
  std::map<std::string, Ids> stored;
  for (int i = 0; i < 20000; ++i) {
    const std::string piece = RandomPiece(&prng, i % 16 ? 12 : PieceCache::kMaxPieceBytes);  // fits the bounds
    Ids found;
    const auto known = stored.find(piece);
    if (known != stored.end()) {
      REQUIRE(cache.Find(piece, &found));
      REQUIRE(found == known->second);
    } else {
      REQUIRE_FALSE(cache.Find(piece, &found));
      REQUIRE(found.empty());
      const Ids ids = IdsOf(&prng, piece);
      cache.Store(piece, ids.data(), ids.size());
      stored[piece] = ids;
    }
  }
  REQUIRE(cache.pieces() == stored.size());
  Ids found = {7};  // Find appends
  REQUIRE(cache.Find(stored.begin()->first, &found));
  REQUIRE(found.size() == 1 + stored.begin()->second.size());
  const std::string too_long(PieceCache::kMaxPieceBytes + 1, 'a');
  const Ids ids(3, 1);
  cache.Store(too_long, ids.data(), ids.size());
  REQUIRE_FALSE(cache.Find(too_long, &found));
}

TEST_CASE("PieceCache: never passes its bounds, and Clear frees its memory", "[tokenizer]") {
  embedlab::Prng prng(42);
  PieceCache cache;
  size_t start_overs = 0;
  // Distinct pieces (a counter in the first bytes), enough to fill the memory several times over.
  for (uint32_t i = 0; i < 3 * PieceCache::kMaxPieces; ++i) {
    std::string piece = RandomPiece(&prng, i % 64 ? 40 : PieceCache::kMaxPieceBytes);
    piece.replace(0, std::min<size_t>(piece.size(), 4), reinterpret_cast<const char*>(&i), 4);
    const Ids ids = IdsOf(&prng, piece);
    const size_t pieces_before = cache.pieces();
    cache.Store(piece, ids.data(), ids.size());
    if (cache.pieces() < pieces_before) ++start_overs;
    Ids found;
    REQUIRE(cache.Find(piece, &found));  // the newest piece is always there
    REQUIRE(found == ids);
    REQUIRE(cache.pieces() <= PieceCache::kMaxPieces);
    REQUIRE(cache.bytes() <= PieceCache::kMaxBytes);
  }
  // Pieces of 4-40 bytes with up to 40 ids fill the memory before kMaxPieces: the byte bound was what held.
  REQUIRE(start_overs >= 2);
  cache.Clear();
  REQUIRE(cache.pieces() == 0);
  REQUIRE(cache.bytes() == 0);
  Ids found;
  REQUIRE_FALSE(cache.Find("abc", &found));
}

TEST_CASE("PieceCache: the piece-count bound holds with short pieces", "[tokenizer]") {
  PieceCache cache;
  const Ids ids = {1, 2};
  size_t most_pieces = 0;
  for (uint32_t i = 0; i < 2 * PieceCache::kMaxPieces + 5; ++i) {
    const std::string piece(reinterpret_cast<const char*>(&i), 4);
    cache.Store(piece, ids.data(), ids.size());
    most_pieces = std::max(most_pieces, cache.pieces());
    REQUIRE(cache.pieces() <= PieceCache::kMaxPieces);
    REQUIRE(cache.bytes() <= PieceCache::kMaxBytes);
  }
  REQUIRE(most_pieces == PieceCache::kMaxPieces);
  // Full at kMaxPieces, it started over with piece kMaxPieces and again with piece 2 * kMaxPieces.
  REQUIRE(cache.pieces() == 5);
}
