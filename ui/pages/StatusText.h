#pragma once
// The status bar's message: one line that never widens the window. A message longer than the
// bar is cut with "..." at its end and shown whole in the tool tip (issue 32.11: at 1024 px
// the bar cut a message mid-word with nothing to read the rest by). Plain text always.
#include <QLabel>
#include <QResizeEvent>

#include <algorithm>

namespace scalelab::ui {

class StatusText : public QLabel {
    Q_OBJECT
public:
    explicit StatusText(QWidget* parent = nullptr) : QLabel(parent) {
        setTextFormat(Qt::PlainText);  // shows user text: never markup (issue 31.3)
        setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    }
    void say(const QString& message) {
        message_ = message;
        fit();
    }
    void clearMessage() { say({}); }
    const QString& message() const { return message_; }  // whole, as given

protected:
    void resizeEvent(QResizeEvent* event) override {
        QLabel::resizeEvent(event);
        fit();
    }

private:
    void fit() {
        QString shown = fontMetrics().elidedText(message_, Qt::ElideRight, std::max(0, contentsRect().width()));
        setText(shown);
        setToolTip(shown == message_ ? QString() : message_);
    }
    QString message_;
};

} // namespace scalelab::ui
