#include "training/passkey_task.h"

#include <cmath>

#include "errors/argument_checks.h"

namespace embedlab {
namespace {

// Filler words, ids 10.. in this order.
const char* const kWords[] = {"the",    "grass", "is", "green", ".",     "sky", "blue", "sun",
                              "yellow", "here",  "we", "go",    "there", "and", "back", "again"};
constexpr int32_t kFirstWord = 10;
constexpr int32_t kWordCount = sizeof(kWords) / sizeof(kWords[0]);

// The PI paper's five sentences as indices into kWords.
const int32_t kSentence0[] = {0, 1, 2, 3, 4};
const int32_t kSentence1[] = {0, 5, 2, 6, 4};
const int32_t kSentence2[] = {0, 7, 2, 8, 4};
const int32_t kSentence3[] = {9, 10, 11, 4};
const int32_t kSentence4[] = {12, 13, 14, 15, 4};
struct Sentence {
  const int32_t* words;
  size_t count;
};
const Sentence kSentences[] = {{kSentence0, 5}, {kSentence1, 5}, {kSentence2, 5}, {kSentence3, 4}, {kSentence4, 5}};

}  // namespace

PasskeyTask::PasskeyTask(int64_t digits) : digits_(digits) { RequireInRange("digits", digits, 1, 16); }

int64_t PasskeyTask::vocab_size() const { return kFirstWord + kWordCount + 2; }
int32_t PasskeyTask::key_marker() const { return kFirstWord + kWordCount; }
int32_t PasskeyTask::query_marker() const { return kFirstWord + kWordCount + 1; }

void PasskeyTask::RequireLength(int64_t length) const {
  RequireInRange("length", length, min_length(), kMaxSequenceLength);
}

size_t PasskeyTask::Sample(Prng& prng, size_t length, double depth, int32_t* ids, int32_t* targets) const {
  RequireLength(static_cast<int64_t>(length));
  RequireFiniteInRange("depth", depth, 0.0, 1.0);
  const size_t k = static_cast<size_t>(digits_);
  const size_t filler = length - min_length();
  const size_t key_at = static_cast<size_t>(std::floor(depth * static_cast<double>(filler) + 0.5));
  int32_t key[16];
  for (size_t d = 0; d < k; ++d) key[d] = static_cast<int32_t>(prng.NextU32() % 10u);
  // The filler stream: whole random sentences, cut where the key and the query interrupt it.
  size_t position = 0, word = 0;
  const Sentence* sentence = &kSentences[prng.NextU32() % 5u];
  auto next_filler = [&]() {
    if (word == sentence->count) {
      sentence = &kSentences[prng.NextU32() % 5u];
      word = 0;
    }
    return kFirstWord + sentence->words[word++];
  };
  for (size_t i = 0; i < length; ++i) targets[i] = -1;
  for (size_t i = 0; i < key_at; ++i) ids[position++] = next_filler();
  ids[position++] = key_marker();
  for (size_t d = 0; d < k; ++d) ids[position++] = key[d];
  for (size_t i = key_at; i < filler; ++i) ids[position++] = next_filler();
  ids[position] = query_marker();
  targets[position++] = key[0];
  for (size_t d = 0; d + 1 < k; ++d) {
    ids[position] = key[d];
    targets[position++] = key[d + 1];
  }
  return key_at;
}

std::string PasskeyTask::Describe(const int32_t* ids, size_t length) const {
  std::string text;
  for (size_t i = 0; i < length; ++i) {
    if (!text.empty()) text += ' ';
    const int32_t id = ids[i];
    if (id >= 0 && id < 10) {
      text += static_cast<char>('0' + id);
    } else if (id >= kFirstWord && id < kFirstWord + kWordCount) {
      text += kWords[id - kFirstWord];
    } else {
      text += id == key_marker() ? "KEY" : id == query_marker() ? "QUERY" : "?";
    }
  }
  return text;
}

}  // namespace embedlab
