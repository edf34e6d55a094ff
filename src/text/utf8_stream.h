// Streaming UTF-8: tokens often end inside a character (a CJK character or an emoji spans several
// tokens), so a decoder that shows text as tokens arrive must hold back an incomplete trailing sequence
// until the bytes that finish it come. Bytes that can never become valid pass through at once.
#ifndef EMBEDLAB_TEXT_UTF8_STREAM_H_
#define EMBEDLAB_TEXT_UTF8_STREAM_H_

#include <string>
#include <string_view>

namespace embedlab {

class Utf8Stream {
 public:
  // Returns the bytes that are ready: everything pushed so far except an incomplete sequence at the end.
  std::string Push(std::string_view bytes);
  // Returns whatever is held back (an unfinished sequence) and resets the stream.
  std::string Finish();
  size_t pending_bytes() const { return pending_.size(); }

 private:
  std::string pending_;
};

}  // namespace embedlab

#endif  // EMBEDLAB_TEXT_UTF8_STREAM_H_
