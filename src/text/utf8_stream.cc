#include "text/utf8_stream.h"

#include <cstdint>

#include "text/utf8.h"

namespace embedlab {
namespace {

// Length of the sequence a lead byte announces (0 when it cannot lead one).
size_t SequenceLength(uint8_t lead) {
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;
}

// Start of an incomplete sequence at the end of text that more bytes could still complete, or
// text.size() when there is none.
size_t IncompleteTailStart(std::string_view text) {
  const size_t n = text.size();
  for (size_t back = 1; back <= 3 && back <= n; ++back) {
    const auto byte = static_cast<uint8_t>(text[n - back]);
    if ((byte & 0xC0) == 0x80) continue;  // a continuation byte: keep looking for its lead
    const size_t want = SequenceLength(byte);
    if (want <= back) return n;
    // The bytes present must be a valid prefix: pad with the smallest continuation that keeps the
    // prefix valid and check that the completed sequence decodes. E0 needs A0.., ED at most 9F,
    // F0 at least 90, F4 at most 8F: the second byte decides, so test both extremes.
    std::string candidate(text.substr(n - back));
    for (const char fill : {'\x80', '\xBF'}) {
      std::string completed = candidate;
      completed.resize(want, fill);
      if (DecodeUtf8At(completed, 0).length == want) return n - back;
    }
    return n;
  }
  return n;
}

}  // namespace

std::string Utf8Stream::Push(std::string_view bytes) {
  pending_.append(bytes.data(), bytes.size());
  const size_t ready = IncompleteTailStart(pending_);
  std::string out = pending_.substr(0, ready);
  pending_.erase(0, ready);
  return out;
}

std::string Utf8Stream::Finish() {
  std::string out;
  out.swap(pending_);
  return out;
}

}  // namespace embedlab
