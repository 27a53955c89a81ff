#pragma once
// File > Open from results store: the experiments in a PostgreSQL results store, listed off
// the GUI thread, to open one or to add its series to the experiment shown (comparing across
// experiments). The connection string is remembered (it never holds a password: ~/.pgpass,
// PGPASSWORD).
#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace scalelab::ui {

class ExperimentBridge;

class StoreDialog : public QDialog {
    Q_OBJECT
public:
    explicit StoreDialog(QWidget* parent = nullptr);

    // Lists the experiments of `conninfo` (a URI or key=value); listed() says when.
    void list(const QString& conninfo);
    QTableWidget* table() const { return table_; }
    QLineEdit* connection() const { return conninfo_; }
    QLabel* status() const { return status_; }
    QString selectedLocation() const;  // "" when no row is selected

signals:
    void listed(int experiments, const QString& error);  // error "": listed
    void openRequested(const QString& location);
    void addRequested(const QString& location);

private:
    void updateButtons();
    QLineEdit* conninfo_;
    QTableWidget* table_;
    QLabel* status_;
    QPushButton *open_, *add_;
    ExperimentBridge* bridge_;
    int generation_ = 0;  // a listing that ends after a newer one was asked for is dropped
};

} // namespace scalelab::ui
