// DIR/report.html of `paraplan study`: the chart (the chart.svg drawing, inline) and the
// results table in one self-contained page (report/html_page.h).
#pragma once

#include <string>

#include "study/study_table.h"

namespace paraplan {

std::string StudyHtml(const StudyTable& table);

}  // namespace paraplan
