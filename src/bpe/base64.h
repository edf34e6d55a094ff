// Standard base64 (RFC 4648, with padding), the encoding of token bytes in .tiktoken files.
#ifndef EMBEDLAB_BPE_BASE64_H_
#define EMBEDLAB_BPE_BASE64_H_

#include <string>
#include <string_view>

namespace embedlab {

// Decodes into *out (replacing its contents); returns false on a malformed input.
bool DecodeBase64(std::string_view text, std::string* out);
std::string EncodeBase64(std::string_view bytes);

}  // namespace embedlab

#endif  // EMBEDLAB_BPE_BASE64_H_
