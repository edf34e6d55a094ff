// safetensors: round trip, header-indexed reads, dtype decoding, and hostile inputs (every truncation,
// every single-byte tamper) that must end in std::out_of_range / std::invalid_argument, never a crash.
#include <catch2/catch.hpp>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "checkpoint/byte_source.h"
#include "checkpoint/safetensors_reader.h"
#include "checkpoint/safetensors_writer.h"

namespace {

std::vector<uint8_t> SmallFile() {
  static const float a[6] = {1, 2, 3, 4, 5, 6};
  static const float b[3] = {-1.5f, 0.25f, 1e-30f};
  return embedlab::WriteSafetensors({{"h.0.attn.c_attn.weight", {2, 3}, a}, {"wpe", {3}, b}}, {{"format", "test"}});
}

embedlab::SafetensorsReader Open(std::vector<uint8_t> bytes) {
  return embedlab::SafetensorsReader(std::make_shared<embedlab::MemoryByteSource>(std::move(bytes)));
}

// Opens a file and reads every tensor; true when that worked, false on a clean library error.
bool OpensCleanly(const std::vector<uint8_t>& bytes) {
  try {
    const auto reader = Open(bytes);
    for (const auto& tensor : reader.index().tensors()) {
      if (tensor.dtype == embedlab::TensorDtype::kI32 || tensor.dtype == embedlab::TensorDtype::kI64) {
        reader.ReadInts(tensor.name);
      } else {
        reader.ReadFloats(tensor.name);
      }
    }
    return true;
  } catch (const std::out_of_range&) {
    return false;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

std::vector<uint8_t> WithHeader(const std::string& json, size_t data_bytes) {
  std::vector<uint8_t> bytes(8 + json.size() + data_bytes, 0);
  for (size_t i = 0; i < 8; ++i) bytes[i] = static_cast<uint8_t>(static_cast<uint64_t>(json.size()) >> (8 * i));
  std::memcpy(bytes.data() + 8, json.data(), json.size());
  return bytes;
}

template <typename Exception>
void RequireThrowsMentioning(const std::vector<uint8_t>& bytes, const std::string& fragment) {
  try {
    Open(bytes);
    FAIL("expected an exception mentioning " << fragment);
  } catch (const Exception& e) {
    INFO("message: " << e.what());
    REQUIRE(std::string(e.what()).find(fragment) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("safetensors round trip keeps names, shapes, values and metadata", "[checkpoint]") {
  const auto reader = Open(SmallFile());
  REQUIRE(reader.index().tensors().size() == 2);
  const auto& entry = reader.index().Find("h.0.attn.c_attn.weight");
  REQUIRE(entry.shape == std::vector<int64_t>{2, 3});
  REQUIRE(entry.file_offset % 8 == 0);  // data section is 8-byte aligned
  REQUIRE(reader.ReadFloats("h.0.attn.c_attn.weight") == std::vector<float>{1, 2, 3, 4, 5, 6});
  REQUIRE(reader.ReadFloats("wpe") == std::vector<float>{-1.5f, 0.25f, 1e-30f});
  REQUIRE(reader.index().metadata().at("format") == "test");
  REQUIRE_THROWS_AS(reader.ReadFloats("wte"), std::invalid_argument);
}

TEST_CASE("reading one tensor reads only the header and that tensor's bytes", "[checkpoint]") {
  const std::vector<uint8_t> file = SmallFile();
  std::vector<std::pair<uint64_t, uint64_t>> reads;
  auto source =
      std::make_shared<embedlab::CallbackByteSource>(file.size(), [&](uint64_t offset, uint64_t length, uint8_t* out) {
        reads.emplace_back(offset, length);
        std::memcpy(out, file.data() + offset, length);
      });
  embedlab::SafetensorsReader reader(source);
  REQUIRE(reads.size() == 2);  // the length field, then the JSON header
  reads.clear();
  const auto& wpe = reader.index().Find("wpe");
  reader.ReadFloats("wpe");
  REQUIRE(reads.size() == 1);
  REQUIRE(reads[0] == std::make_pair(wpe.file_offset, wpe.byte_length));
}

TEST_CASE("F16, BF16, F64 and I64 tensors decode exactly", "[checkpoint]") {
  const std::string json = R"({"h":{"dtype":"F16","shape":[4],"data_offsets":[0,8]},)"
                           R"("b":{"dtype":"BF16","shape":[2],"data_offsets":[8,12]},)"
                           R"("d":{"dtype":"F64","shape":[1],"data_offsets":[12,20]},)"
                           R"("i":{"dtype":"I64","shape":[1],"data_offsets":[20,28]}})";
  std::vector<uint8_t> bytes = WithHeader(json, 28);
  uint8_t* data = bytes.data() + 8 + json.size();
  const uint16_t halves[4] = {0x3C00, 0xC000, 0x0001, 0x7BFF};  // 1, -2, smallest subnormal, 65504
  std::memcpy(data, halves, 8);
  const uint16_t bfloats[2] = {0x3F80, 0x4049};  // 1, 3.140625
  std::memcpy(data + 8, bfloats, 4);
  const double value = 0.1;
  std::memcpy(data + 12, &value, 8);
  const int64_t integer = -7;
  std::memcpy(data + 20, &integer, 8);
  const auto reader = Open(bytes);
  REQUIRE(reader.ReadFloats("h") == std::vector<float>{1.0f, -2.0f, 5.9604644775390625e-8f, 65504.0f});
  REQUIRE(reader.ReadFloats("b") == std::vector<float>{1.0f, 3.140625f});
  REQUIRE(reader.ReadFloats("d") == std::vector<float>{0.1f});
  REQUIRE(reader.ReadInts("i") == std::vector<int32_t>{-7});
  REQUIRE_THROWS_AS(reader.ReadInts("h"), std::invalid_argument);
}

TEST_CASE("a tensor the reader cannot decode is refused alone: the rest of the file reads", "[checkpoint]") {
  // A quantized checkpoint's U8 tensor next to float ones (the reader once refused the whole file).
  const std::string json = R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                           R"("q":{"dtype":"U8","shape":[3],"data_offsets":[8,11]},)"
                           R"("s":{"dtype":"I16","shape":[2],"data_offsets":[11,15]},)"
                           R"("f8":{"dtype":"F8_E4M3","shape":[1],"data_offsets":[15,16]},)"
                           R"("m":{"dtype":"BOOL","shape":[1],"data_offsets":[16,17]}})";
  std::vector<uint8_t> bytes = WithHeader(json, 17);
  uint8_t* data = bytes.data() + 8 + json.size();
  const float floats[2] = {0.5f, -3.0f};
  std::memcpy(data, floats, 8);
  const uint8_t small[3] = {0, 200, 255};
  std::memcpy(data + 8, small, 3);
  const int16_t shorts[2] = {-300, 32767};
  std::memcpy(data + 11, shorts, 4);
  data[15] = 0x38;
  data[16] = 1;
  const auto reader = Open(bytes);
  REQUIRE(reader.index().tensors().size() == 5);
  REQUIRE(reader.ReadFloats("w") == std::vector<float>{0.5f, -3.0f});
  REQUIRE(reader.ReadInts("q") == std::vector<int32_t>{0, 200, 255});
  REQUIRE(reader.ReadInts("s") == std::vector<int32_t>{-300, 32767});
  REQUIRE(reader.ReadInts("m") == std::vector<int32_t>{1});
  REQUIRE_THROWS_WITH(reader.ReadFloats("q"), Catch::Contains("dtype U8, not a float type"));
  REQUIRE_THROWS_WITH(reader.ReadFloats("f8"), Catch::Contains("dtype F8_E4M3, not a float type"));
  REQUIRE_THROWS_WITH(reader.ReadInts("f8"), Catch::Contains("not an integer type"));
}

TEST_CASE("every truncation of a safetensors file is rejected cleanly", "[checkpoint]") {
  const std::vector<uint8_t> file = SmallFile();
  for (size_t length = 0; length < file.size(); ++length) {
    INFO("truncated to " << length << " of " << file.size() << " bytes");
    REQUIRE_FALSE(OpensCleanly(std::vector<uint8_t>(file.begin(), file.begin() + static_cast<long>(length))));
  }
  REQUIRE(OpensCleanly(file));
}

TEST_CASE("every single-byte tamper either still parses or is rejected cleanly", "[checkpoint]") {
  const std::vector<uint8_t> file = SmallFile();
  for (size_t i = 0; i < file.size(); ++i) {
    for (uint8_t value : {uint8_t{0x00}, uint8_t{0xFF}, uint8_t{'9'}, uint8_t{'"'}, uint8_t{'['}}) {
      std::vector<uint8_t> tampered = file;
      tampered[i] = value;
      OpensCleanly(tampered);  // must not crash, hang or throw anything else
    }
  }
}

TEST_CASE("malformed headers give messages that say what is wrong", "[checkpoint]") {
  RequireThrowsMentioning<std::invalid_argument>(WithHeader("{not json", 0), "not valid JSON");
  RequireThrowsMentioning<std::invalid_argument>(WithHeader("[1,2]", 0), "not a JSON object");
  RequireThrowsMentioning<std::out_of_range>(WithHeader(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 4),
                                             "truncated or tampered");
  RequireThrowsMentioning<std::invalid_argument>(
      WithHeader(R"({"w":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", 8), "shape and dtype need 12");
  RequireThrowsMentioning<std::invalid_argument>(
      WithHeader(R"({"w":{"dtype":"Q4","shape":[2],"data_offsets":[0,8]}})", 8), "dtype \"Q4\"");
  RequireThrowsMentioning<std::invalid_argument>(
      WithHeader(R"({"w":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})", 8), "non-negative");
  RequireThrowsMentioning<std::invalid_argument>(
      WithHeader(R"({"w":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,8]}})", 8),
      "impossibly large");
  RequireThrowsMentioning<std::invalid_argument>(WithHeader(R"({"w":{"dtype":"F32","shape":[2]}})", 8), "data_offsets");
  std::vector<uint8_t> huge_length = SmallFile();
  huge_length[7] = 0x7F;
  RequireThrowsMentioning<std::invalid_argument>(huge_length, "header length");
  std::vector<uint8_t> long_header = SmallFile();
  long_header[1] = 0x10;  // claims 4 KB more header than the file holds
  RequireThrowsMentioning<std::out_of_range>(long_header, "truncated?");
  RequireThrowsMentioning<std::out_of_range>(std::vector<uint8_t>{1, 2, 3}, "fewer than the 8-byte");
}

TEST_CASE("the writer refuses empty, reserved and repeated names", "[checkpoint]") {
  const float x = 1.0f;
  REQUIRE_THROWS_AS(embedlab::WriteSafetensors({{"", {1}, &x}}, {}), std::invalid_argument);
  REQUIRE_THROWS_AS(embedlab::WriteSafetensors({{"__metadata__", {1}, &x}}, {}), std::invalid_argument);
  REQUIRE_THROWS_AS(embedlab::WriteSafetensors({{"a", {1}, &x}, {"a", {1}, &x}}, {}), std::invalid_argument);
}

TEST_CASE("one tensor can be read from a huge file without touching the rest", "[checkpoint]") {
  // A virtual 1 TiB file: a (2^40 - 8 - header - 12)-byte "wte" first, then a 3-float "wpe"
  // at the very end. Only the header and wpe's 12 bytes are ever requested.
  const uint64_t file_size = uint64_t{1} << 40;
  std::string json = R"({"wte":{"dtype":"F32","shape":[DATA],"data_offsets":[0,WTE_END]},)"
                     R"("wpe":{"dtype":"F32","shape":[3],"data_offsets":[WTE_END,DATA_END]}})";
  // Pad the header to a fixed length so the data offsets can be computed before they are written in.
  const size_t header_length = 256;
  const uint64_t data_size = file_size - 8 - header_length;
  const uint64_t wte_end = data_size - 12;
  const auto replace = [&](const std::string& key, uint64_t value) {
    for (size_t at; (at = json.find(key)) != std::string::npos;) json.replace(at, key.size(), std::to_string(value));
  };
  replace("DATA_END", data_size);
  replace("WTE_END", wte_end);
  replace("DATA", wte_end / 4);
  json.resize(header_length, ' ');
  const float wpe[3] = {0.5f, -1.0f, 2.0f};
  uint64_t bytes_read = 0;
  auto source =
      std::make_shared<embedlab::CallbackByteSource>(file_size, [&](uint64_t offset, uint64_t length, uint8_t* out) {
        bytes_read += length;
        for (uint64_t i = 0; i < length; ++i) {
          const uint64_t at = offset + i;
          if (at < 8) {
            out[i] = static_cast<uint8_t>(static_cast<uint64_t>(header_length) >> (8 * at));
          } else if (at < 8 + header_length) {
            out[i] = static_cast<uint8_t>(json[at - 8]);
          } else if (at >= file_size - 12) {
            std::memcpy(&out[i], reinterpret_cast<const uint8_t*>(wpe) + (at - (file_size - 12)), 1);
          } else {
            FAIL("read inside wte at byte " << at);
          }
        }
      });
  embedlab::SafetensorsReader reader(source);
  REQUIRE(reader.index().Find("wte").element_count == wte_end / 4);
  REQUIRE(reader.ReadFloats("wpe") == std::vector<float>{0.5f, -1.0f, 2.0f});
  REQUIRE(bytes_read == 8 + header_length + 12);
}
