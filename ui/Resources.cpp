#include <QtGlobal>

// Resources compiled into a static library are registered only when asked.
void scalelabInitResources() { Q_INIT_RESOURCE(scalelab); }
