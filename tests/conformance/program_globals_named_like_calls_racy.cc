// Conformance: the racy twin of program_globals_named_like_calls: a thread
// and main both add to the program's own global `send` (its other globals
// named like interposed calls beside it) without any order between them.
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
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

void* add_to_send(void*) {
  send += 1;
  return nullptr;
}

}  // namespace

int main() {
  pthread_t thread;
  if (pthread_create(&thread, nullptr, add_to_send, nullptr) != 0) return 2;
  send += 1;
  if (pthread_join(thread, nullptr) != 0) return 2;
  return send == 2 && recv == 0 && poll == 0 ? 0 : 1;
}
