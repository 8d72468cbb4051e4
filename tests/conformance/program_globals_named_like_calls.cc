// Conformance: a program whose own globals are named like every call racelab
// interposes but pthread's (send, read, poll, select, flock, nanosleep, ...:
// C programs of concurrency benchmarks declare `int send`, `int receive`).
// ThreadSanitizer's interceptors are weak, so the program's globals win and
// it links; racelab's interposed calls are weak too. A thread adds to every
// global, main reads them after the join (clean). The pthread_* names are not
// among them: racelab's runtime and libstdc++ call pthread_create,
// pthread_mutex_lock, ... by name inside the program, and a program that
// starts threads cannot name a global after them anyway. No libc header is
// included: each declares some of these names as functions.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
extern "C" {
using pthread_t = unsigned long;
int pthread_create(pthread_t* thread, const void* attributes,
                   void* (*start)(void*), void* argument);
int pthread_join(pthread_t thread, void** result);

int accept, accept4, clock_nanosleep, epoll_pwait, epoll_wait, flock, nanosleep,
    poll, ppoll, read, readv, recv, recvfrom, recvmsg, sched_yield, select,
    sem_clockwait, sem_post, sem_timedwait, sem_trywait, sem_wait, send,
    sendmsg, sendto, sigtimedwait, sigwait, sigwaitinfo, sleep, syscall, usleep,
    wait, wait4, waitid, waitpid, write, writev;
}

namespace {

int* const globals[] = {&accept,        &accept4,       &clock_nanosleep,
                        &epoll_pwait,   &epoll_wait,    &flock,
                        &nanosleep,     &poll,          &ppoll,
                        &read,          &readv,         &recv,
                        &recvfrom,      &recvmsg,       &sched_yield,
                        &select,        &sem_clockwait, &sem_post,
                        &sem_timedwait, &sem_trywait,   &sem_wait,
                        &send,          &sendmsg,       &sendto,
                        &sigtimedwait,  &sigwait,       &sigwaitinfo,
                        &sleep,         &syscall,       &usleep,
                        &wait,          &wait4,         &waitid,
                        &waitpid,       &write,         &writev};

void* add_to_every_global(void*) {
  for (int* global : globals) *global += 1;
  return nullptr;
}

}  // namespace

int main() {
  for (int* global : globals) *global = 41;
  pthread_t thread;
  if (pthread_create(&thread, nullptr, add_to_every_global, nullptr) != 0) {
    return 2;
  }
  if (pthread_join(thread, nullptr) != 0) return 2;
  for (int* global : globals) {
    if (*global != 42) return 1;
  }
  return 0;
}
