// A small JSON document builder for the reporters. Objects keep their keys in insertion order,
// numbers print with FormatShortest, so the same result always gives the same bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace paraplan {

class Json {
 public:
  using Array = std::vector<Json>;
  using Object = std::vector<std::pair<std::string, Json>>;

  Json() : value_(nullptr) {}
  Json(std::nullptr_t) : value_(nullptr) {}
  Json(bool b) : value_(b) {}
  Json(int v) : value_(static_cast<int64_t>(v)) {}
  Json(int64_t v) : value_(v) {}
  Json(double v) : value_(v) {}
  Json(const char* s) : value_(std::string(s)) {}
  Json(std::string s) : value_(std::move(s)) {}

  static Json MakeObject() {
    Json j;
    j.value_ = Object{};
    return j;
  }
  static Json MakeArray() {
    Json j;
    j.value_ = Array{};
    return j;
  }

  // Object: appends (or replaces) key. Returns *this for chaining.
  Json& Set(const std::string& key, Json value);
  // Array: appends.
  Json& Push(Json value);

  bool IsObject() const { return std::holds_alternative<Object>(value_); }
  bool IsArray() const { return std::holds_alternative<Array>(value_); }
  const Json* Find(const std::string& key) const;

  // Compact ("{"a":1}") when indent < 0; otherwise pretty-printed with that many spaces.
  std::string Dump(int indent = 2) const;

 private:
  void DumpTo(std::string& out, int indent, int depth) const;
  std::variant<std::nullptr_t, bool, int64_t, double, std::string, Array, Object> value_;
};

}  // namespace paraplan
