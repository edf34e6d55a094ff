#include "bpe/special_tokens.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace embedlab {
namespace {

constexpr size_t kNotSearched = static_cast<size_t>(-2);

std::string KnownNames(const std::vector<SpecialToken>& tokens) {
  std::string names;
  for (const SpecialToken& t : tokens) names += (names.empty() ? "" : ", ") + t.text;
  return names.empty() ? "none" : names;
}

}  // namespace

SpecialTokenSet::SpecialTokenSet(std::vector<SpecialToken> tokens) : tokens_(std::move(tokens)) {
  for (const SpecialToken& t : tokens_) {
    if (t.text.empty()) throw std::invalid_argument("special tokens: a special token must not be empty");
  }
}

void SpecialTokenSet::Resolve(const SpecialTokenPolicy& policy, std::vector<const SpecialToken*>* allowed,
                              std::vector<const SpecialToken*>* disallowed) const {
  auto check_names = [&](const std::vector<std::string>& names, const char* what) {
    for (const std::string& name : names) {
      if (std::none_of(tokens_.begin(), tokens_.end(), [&](const SpecialToken& t) { return t.text == name; })) {
        throw std::invalid_argument(std::string(what) + ": '" + name +
                                    "' is not a special token of this tokenizer (it has: " + KnownNames(tokens_) + ")");
      }
    }
  };
  check_names(policy.allowed, "allowedSpecial");
  check_names(policy.disallowed, "disallowedSpecial");
  auto named = [](const std::vector<std::string>& names, const SpecialToken& t) {
    return std::find(names.begin(), names.end(), t.text) != names.end();
  };
  allowed->clear();
  disallowed->clear();
  // As tiktoken: "all" disallowed means every token not allowed, but a token named in the disallowed list stays
  // disallowed even when allowed ("all" or by name), so its appearance is an error.
  for (const SpecialToken& t : tokens_) {
    if (!policy.disallow_all && named(policy.disallowed, t)) {
      disallowed->push_back(&t);
    } else if (policy.allow_all || named(policy.allowed, t)) {
      allowed->push_back(&t);
    } else if (policy.disallow_all) {
      disallowed->push_back(&t);
    }
  }
}

const SpecialToken* SpecialTokenSet::FindById(uint32_t id) const {
  for (const SpecialToken& t : tokens_) {
    if (t.id == id) return &t;
  }
  return nullptr;
}

SpecialTokenFinder::SpecialTokenFinder(std::string_view text, std::vector<const SpecialToken*> candidates)
    : text_(text), candidates_(std::move(candidates)), searched_from_(kNotSearched) {
  if (candidates_.size() <= kMaxCandidatesSearchedOneByOne) {
    next_at_.assign(candidates_.size(), kNotSearched);
    return;
  }
  for (const SpecialToken* candidate : candidates_) {
    const std::string_view token = candidate->text;
    if (token.empty()) continue;
    by_text_.emplace(token, candidate);  // the first of two equal texts wins, as below
    first_byte_[static_cast<uint8_t>(token[0])] = true;
    if (std::find(lengths_.begin(), lengths_.end(), token.size()) == lengths_.end()) lengths_.push_back(token.size());
  }
  std::sort(lengths_.begin(), lengths_.end(), std::greater<size_t>());
}

const SpecialToken* SpecialTokenFinder::NextInOnePass(size_t pos, size_t* start) {
  const bool cached =
      searched_from_ != kNotSearched && searched_from_ <= pos && (found_ == nullptr || pos <= found_at_);
  if (!cached) {
    searched_from_ = pos;
    found_ = nullptr;
    for (size_t at = pos; at < text_.size() && found_ == nullptr; ++at) {
      if (!first_byte_[static_cast<uint8_t>(text_[at])]) continue;
      for (size_t length : lengths_) {  // longest first: the longest token wins a tie
        if (length > text_.size() - at) continue;
        const auto it = by_text_.find(text_.substr(at, length));
        if (it != by_text_.end()) {
          found_ = it->second;
          found_at_ = at;
          break;
        }
      }
    }
  }
  *start = found_ == nullptr ? std::string_view::npos : found_at_;
  return found_;
}

const SpecialToken* SpecialTokenFinder::Next(size_t pos, size_t* start) {
  if (candidates_.size() > kMaxCandidatesSearchedOneByOne) return NextInOnePass(pos, start);
  const SpecialToken* best = nullptr;
  size_t best_at = std::string_view::npos;
  for (size_t i = 0; i < candidates_.size(); ++i) {
    if (next_at_[i] == kNotSearched || (next_at_[i] != std::string_view::npos && next_at_[i] < pos)) {
      next_at_[i] = text_.find(candidates_[i]->text, pos);
    }
    const size_t at = next_at_[i];
    if (at == std::string_view::npos) continue;
    if (at < best_at || (at == best_at && candidates_[i]->text.size() > best->text.size())) {
      best = candidates_[i];
      best_at = at;
    }
  }
  *start = best_at;
  return best;
}

}  // namespace embedlab
