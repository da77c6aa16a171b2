#include "report/html_page.h"

#include "report/html_svg.h"

namespace paraplan {

namespace {

constexpr const char* kStyle =
    "body{font-family:sans-serif;margin:24px;color:#222}"
    "table{border-collapse:collapse;margin:8px 0 16px}"
    "th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}"
    "th{background:#f2f2f2}td[data-key=plan]{text-align:left;font-family:monospace}"
    "h2{margin-top:28px}pre{background:#f7f7f7;padding:8px}svg{display:block;margin:8px 0}";

}  // namespace

std::string HtmlPage(const std::string& title, const std::string& body_html) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
         HtmlEscape(title) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n" +
         body_html + "</body>\n</html>\n";
}

}  // namespace paraplan
