#include "bridge/ExperimentReader.h"

#include <QMetaObject>
#include <QThread>

#include <memory>

namespace scalelab::ui {

ExperimentReader::~ExperimentReader() {
    if (!thread_) return;
    thread_->wait();  // the queued delivery dies with this object
    delete thread_;
}

bool ExperimentReader::read(const QString& path, Done done, Failed failed) {
    if (thread_) return false;
    std::string file = path.toStdString();
    thread_ = QThread::create([this, file, done = std::move(done), failed = std::move(failed)] {
        auto snapshot = std::make_shared<ExperimentSnapshot>();
        QString error;
        try {
            auto store = ExperimentStore::open(file, true);
            snapshot->series = store->series();
            snapshot->provenance = store->provenance();
            snapshot->runs = store->runs();
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        // On the reader's thread: the thread is finished with (joined) before the result is
        // handed on, so a callback may start the next read.
        QMetaObject::invokeMethod(this, [this, snapshot, error, done, failed] {
            thread_->wait();
            delete thread_;
            thread_ = nullptr;
            if (error.isEmpty()) done(std::move(*snapshot));
            else failed(error);
        }, Qt::QueuedConnection);
    });
    thread_->start();
    return true;
}

} // namespace scalelab::ui
