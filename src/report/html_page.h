// The frame of paraplan's HTML reports (plan, study): doctype, inline stylesheet, title, body.
// Self-contained: no scripts, fonts, images or links to fetch.
#pragma once

#include <string>

namespace paraplan {

// A whole page; `body_html` is inserted as is, `title` is escaped.
std::string HtmlPage(const std::string& title, const std::string& body_html);

}  // namespace paraplan
