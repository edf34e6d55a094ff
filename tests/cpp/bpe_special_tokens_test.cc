// SpecialTokenFinder against a brute-force reference (every position, every candidate: the leftmost occurrence,
// the longest on a tie), with few candidates (searched one by one) and many (the one-pass search), and
// SpecialTokenSet::Resolve's tiktoken rules.
#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "bpe/special_tokens.h"
#include "random/prng.h"

using embedlab::SpecialToken;
using embedlab::SpecialTokenFinder;

namespace {

const SpecialToken* Reference(std::string_view text, const std::vector<const SpecialToken*>& candidates, size_t pos,
                              size_t* start) {
  for (size_t at = pos; at < text.size(); ++at) {
    const SpecialToken* best = nullptr;
    for (const SpecialToken* c : candidates) {
      if (text.substr(at, c->text.size()) == c->text && (best == nullptr || c->text.size() > best->text.size())) {
        best = c;
      }
    }
    if (best != nullptr) {
      *start = at;
      return best;
    }
  }
  *start = std::string_view::npos;
  return nullptr;
}

// Tokens over a small alphabet, so they overlap and nest ("<|a|>" inside "<|a|>b"), plus a shared-prefix family.
std::vector<SpecialToken> Tokens(size_t count) {
  std::vector<SpecialToken> tokens;
  for (size_t i = 0; i < count; ++i) {
    std::string text = "<|";
    for (size_t k = i; k > 0; k /= 3) text += static_cast<char>('a' + k % 3);
    text += "|>";
    if (i % 4 == 3) text += 'b';
    tokens.push_back({text, static_cast<uint32_t>(1000 + i)});
  }
  tokens.push_back({"<", 5000});  // a one-byte token that every other one starts with
  return tokens;
}

std::string RandomText(embedlab::Prng* prng, const std::vector<SpecialToken>& tokens, size_t pieces) {
  std::string text;
  const char alphabet[] = "<|>ab c";
  for (size_t i = 0; i < pieces; ++i) {
    if (prng->NextU32() % 3 == 0) {
      text += tokens[prng->NextU32() % tokens.size()].text;
    } else {
      text += alphabet[prng->NextU32() % (sizeof(alphabet) - 1)];
    }
  }
  return text;
}

}  // namespace

TEST_CASE("SpecialTokenFinder: leftmost, then longest, with few and many candidates", "[bpe][special]") {
  embedlab::Prng prng(7);
  for (size_t count : {1, 3, 8, 9, 40, 300}) {
    const std::vector<SpecialToken> tokens = Tokens(count);
    std::vector<const SpecialToken*> candidates;
    for (const SpecialToken& t : tokens) candidates.push_back(&t);
    for (int trial = 0; trial < 30; ++trial) {
      const std::string text = RandomText(&prng, tokens, 60);
      SpecialTokenFinder finder(text, candidates);
      // Positions as the encoder asks (each after the previous token), the same one twice, and jumps ahead.
      size_t pos = 0;
      for (int step = 0; step < 40 && pos <= text.size(); ++step) {
        size_t start = 0;
        size_t expected_start = 0;
        const SpecialToken* found = finder.Next(pos, &start);
        const SpecialToken* expected = Reference(text, candidates, pos, &expected_start);
        INFO("count " << count << ", text " << text << ", pos " << pos);
        REQUIRE(found == expected);
        REQUIRE(start == expected_start);
        if (found == nullptr) break;
        pos = step % 5 == 4 ? start : start + found->text.size();  // asking again at a match must find it again
        if (step % 7 == 6) pos += prng.NextU32() % (text.size() + 1 - pos);
      }
    }
  }
}

TEST_CASE("SpecialTokenSet::Resolve: tiktoken's allowed and disallowed rules", "[bpe][special]") {
  const embedlab::SpecialTokenSet set({{"<|a|>", 10}, {"<|b|>", 11}, {"<|c|>", 12}});
  std::vector<const SpecialToken*> allowed;
  std::vector<const SpecialToken*> disallowed;
  auto texts = [](const std::vector<const SpecialToken*>& tokens) {
    std::vector<std::string> out;
    for (const SpecialToken* t : tokens) out.push_back(t->text);
    return out;
  };
  embedlab::SpecialTokenPolicy policy;  // the default: none allowed, all disallowed
  set.Resolve(policy, &allowed, &disallowed);
  CHECK(texts(allowed).empty());
  CHECK(texts(disallowed) == std::vector<std::string>{"<|a|>", "<|b|>", "<|c|>"});
  policy.allowed = {"<|b|>"};  // "all" disallowed means all the others
  set.Resolve(policy, &allowed, &disallowed);
  CHECK(texts(allowed) == std::vector<std::string>{"<|b|>"});
  CHECK(texts(disallowed) == std::vector<std::string>{"<|a|>", "<|c|>"});
  // A token named as disallowed stays disallowed when allowed, by "all" or by name (tiktoken raises for it).
  policy = {true, {}, false, {"<|a|>"}};
  set.Resolve(policy, &allowed, &disallowed);
  CHECK(texts(allowed) == std::vector<std::string>{"<|b|>", "<|c|>"});
  CHECK(texts(disallowed) == std::vector<std::string>{"<|a|>"});
  policy = {false, {"<|a|>", "<|b|>"}, false, {"<|a|>"}};
  set.Resolve(policy, &allowed, &disallowed);
  CHECK(texts(allowed) == std::vector<std::string>{"<|b|>"});
  CHECK(texts(disallowed) == std::vector<std::string>{"<|a|>"});
  // Both "all": nothing is left to disallow.
  set.Resolve(embedlab::SpecialTokenPolicy::AllowAll(), &allowed, &disallowed);
  CHECK(texts(allowed).size() == 3);
  CHECK(texts(disallowed).empty());
}
