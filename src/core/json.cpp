#include "core/json.h"

#include "core/format.h"

namespace paraplan {

Json& Json::Set(const std::string& key, Json value) {
  if (!IsObject()) value_ = Object{};
  auto& obj = std::get<Object>(value_);
  for (auto& [k, v] : obj) {
    if (k == key) {
      v = std::move(value);
      return *this;
    }
  }
  obj.emplace_back(key, std::move(value));
  return *this;
}

Json& Json::Push(Json value) {
  if (!IsArray()) value_ = Array{};
  std::get<Array>(value_).push_back(std::move(value));
  return *this;
}

const Json* Json::Find(const std::string& key) const {
  if (!IsObject()) return nullptr;
  for (const auto& [k, v] : std::get<Object>(value_)) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::string Json::Dump(int indent) const {
  std::string out;
  DumpTo(out, indent, 0);
  if (indent >= 0) out += '\n';
  return out;
}

namespace {
void NewLine(std::string& out, int indent, int depth) {
  if (indent < 0) return;
  out += '\n';
  out.append(static_cast<size_t>(indent) * static_cast<size_t>(depth), ' ');
}
}  // namespace

void Json::DumpTo(std::string& out, int indent, int depth) const {
  if (std::holds_alternative<std::nullptr_t>(value_)) {
    out += "null";
  } else if (const bool* b = std::get_if<bool>(&value_)) {
    out += *b ? "true" : "false";
  } else if (const int64_t* i = std::get_if<int64_t>(&value_)) {
    out += std::to_string(*i);
  } else if (const double* d = std::get_if<double>(&value_)) {
    out += FormatShortest(*d);
  } else if (const std::string* s = std::get_if<std::string>(&value_)) {
    out += '"' + JsonEscape(*s) + '"';
  } else if (const Array* a = std::get_if<Array>(&value_)) {
    if (a->empty()) {
      out += "[]";
      return;
    }
    out += '[';
    for (size_t n = 0; n < a->size(); ++n) {
      if (n > 0) out += ',';
      NewLine(out, indent, depth + 1);
      (*a)[n].DumpTo(out, indent, depth + 1);
    }
    NewLine(out, indent, depth);
    out += ']';
  } else {
    const Object& o = std::get<Object>(value_);
    if (o.empty()) {
      out += "{}";
      return;
    }
    out += '{';
    for (size_t n = 0; n < o.size(); ++n) {
      if (n > 0) out += ',';
      NewLine(out, indent, depth + 1);
      out += '"' + JsonEscape(o[n].first) + (indent < 0 ? "\":" : "\": ");
      o[n].second.DumpTo(out, indent, depth + 1);
    }
    NewLine(out, indent, depth);
    out += '}';
  }
}

}  // namespace paraplan
