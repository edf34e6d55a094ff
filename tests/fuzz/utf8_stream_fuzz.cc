// The streaming UTF-8 decoder (text/utf8_stream.h) over arbitrary bytes pushed in random pieces: what it
// releases, decoded piece by piece, must read exactly like a one-shot decode of the whole input (so no
// character is ever cut, and no byte lost, duplicated or reordered); it holds back at most 3 bytes, and only a
// sequence that more bytes could still complete.
// Input: byte 0 = number of split points (mod 16), then that many split bytes, then the text.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_common.h"
#include "text/utf8_stream.h"

using namespace embedlab;

namespace {

// An independent decoder written from the WHATWG Encoding Standard's UTF-8 decoder (the one TextDecoder
// uses): each maximal ill-formed subpart becomes one U+FFFD, returned here as -1 in a list of code points.
std::vector<int32_t> WhatwgDecode(std::string_view bytes) {
  std::vector<int32_t> out;
  uint32_t code = 0;
  int needed = 0, seen = 0;
  uint8_t lower = 0x80, upper = 0xBF;
  for (size_t i = 0; i < bytes.size(); ++i) {
    const auto byte = static_cast<uint8_t>(bytes[i]);
    if (needed == 0) {
      if (byte <= 0x7F) {
        out.push_back(byte);
      } else if (byte >= 0xC2 && byte <= 0xDF) {
        needed = 1;
        code = byte & 0x1F;
      } else if (byte >= 0xE0 && byte <= 0xEF) {
        if (byte == 0xE0) lower = 0xA0;
        if (byte == 0xED) upper = 0x9F;
        needed = 2;
        code = byte & 0xF;
      } else if (byte >= 0xF0 && byte <= 0xF4) {
        if (byte == 0xF0) lower = 0x90;
        if (byte == 0xF4) upper = 0x8F;
        needed = 3;
        code = byte & 0x7;
      } else {
        out.push_back(-1);
      }
      continue;
    }
    if (byte < lower || byte > upper) {
      // The subpart so far is ill-formed; the byte is read again as the start of something new.
      code = 0;
      needed = seen = 0;
      lower = 0x80;
      upper = 0xBF;
      out.push_back(-1);
      --i;
      continue;
    }
    lower = 0x80;
    upper = 0xBF;
    code = (code << 6) | (byte & 0x3F);
    if (++seen == needed) {
      out.push_back(static_cast<int32_t>(code));
      code = 0;
      needed = seen = 0;
    }
  }
  if (needed != 0) out.push_back(-1);  // end of input inside a sequence
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  size_t splits = data[0] % 16;
  if (splits + 1 > size) splits = size - 1;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1 + splits, size - 1 - splits);

  Utf8Stream stream;
  std::string released;            // everything the stream gave out, in order
  std::vector<int32_t> piecewise;  // each released piece decoded on its own, concatenated
  const auto take = [&](const std::string& piece) {
    released += piece;
    const std::vector<int32_t> decoded = WhatwgDecode(piece);
    piecewise.insert(piecewise.end(), decoded.begin(), decoded.end());
  };
  size_t at = 0;
  for (size_t k = 0; k <= splits; ++k) {
    // Split byte k moves the cut forward by 0..255 bytes; the last piece takes the rest.
    const size_t end = k < splits ? std::min(text.size(), at + data[1 + k]) : text.size();
    take(stream.Push(text.substr(at, end - at)));
    at = end;
    const size_t pending = stream.pending_bytes();
    FUZZ_CHECK(pending <= 3);
    FUZZ_CHECK(released.size() + pending == at);
    if (pending > 0) {
      // What it holds is an unfinished sequence: the same bytes at the very end of the input decode to one
      // U+FFFD (a truncated sequence), never to a complete character or to several replacements.
      FUZZ_CHECK(WhatwgDecode(text.substr(at - pending, pending)) == std::vector<int32_t>{-1});
    }
  }
  take(stream.Finish());
  FUZZ_CHECK(stream.pending_bytes() == 0);
  FUZZ_CHECK(released == text);
  FUZZ_CHECK(piecewise == WhatwgDecode(text));
  return 0;
}
