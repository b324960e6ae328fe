// SPDX-License-Identifier: GPL-2.0-only
/*
 * Guest workload for the kernel validation: a mix that makes every
 * governor visit most idle states and both tick paths.
 *
 *   workload SECONDS
 *
 * Runs, until SECONDS have passed:
 *  - sleepers: nanosleep() loops at 30 us, 120 us, 700 us, 3 ms, 12 ms and
 *    45 ms with +-25% jitter and a few microseconds of work per wakeup;
 *  - a pipe ping-pong between two processes pinned to CPUs 0 and 1, with
 *    short think times, in bursts separated by 5-20 ms pauses;
 *  - a burster: 2 ms of spinning, then 8 ms of sleep.
 * Deterministic per process (fixed LCG seeds), statically linked.
 *
 *   workload spin CPU
 *
 * spins on CPU for ever: /init runs one per CPU before stopping the trace
 * so that no CPU goes idle (and no governor state changes) between the
 * end of the trace and the dump of the wteo weights.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int64_t deadline_ns;

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

static void sleep_ns(int64_t ns)
{
	struct timespec ts = { ns / 1000000000LL, ns % 1000000000LL };

	nanosleep(&ts, NULL);
}

static void spin_ns(int64_t ns)
{
	int64_t end = now_ns() + ns;

	while (now_ns() < end)
		;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void sleeper(int64_t period, uint32_t seed)
{
	while (now_ns() < deadline_ns) {
		int64_t j = period / 4;
		int64_t d = period - j + (int64_t)(lcg(&seed) % (uint32_t)(2 * j + 1));

		sleep_ns(d);
		spin_ns(2000 + lcg(&seed) % 5000);
	}
	_exit(0);
}

static void pingpong(void)
{
	int a[2], b[2];
	pid_t pid;
	char c = 0;
	uint32_t seed = 77;

	if (pipe(a) || pipe(b))
		_exit(1);
	pid = fork();
	if (pid == 0) {
		close(a[1]);
		close(b[0]);
		pin(1);
		while (read(a[0], &c, 1) == 1) {
			spin_ns(3000);
			if (write(b[1], &c, 1) != 1)
				break;
		}
		_exit(0);
	}
	close(a[0]);
	close(b[1]);
	pin(0);
	while (now_ns() < deadline_ns) {
		int n = 20 + lcg(&seed) % 200;

		for (int i = 0; i < n; i++) {
			if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
				break;
			spin_ns(lcg(&seed) % 20000);
		}
		sleep_ns(5000000 + lcg(&seed) % 15000000);
	}
	close(a[1]);
	waitpid(pid, NULL, 0);
	_exit(0);
}

static void burster(void)
{
	while (now_ns() < deadline_ns) {
		spin_ns(2000000);
		sleep_ns(8000000);
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	static const int64_t periods[] = { 30000, 120000, 700000, 3000000, 12000000, 45000000 };
	int nproc = 0;

	if (argc == 3 && strcmp(argv[1], "spin") == 0) {
		pin(atoi(argv[2]));
		for (;;)
			;
	}
	if (argc != 2 || atoi(argv[1]) <= 0) {
		fprintf(stderr, "usage: workload SECONDS | workload spin CPU\n");
		return 2;
	}
	deadline_ns = now_ns() + (int64_t)atoi(argv[1]) * 1000000000LL;
	for (unsigned i = 0; i < sizeof(periods) / sizeof(periods[0]); i++) {
		if (fork() == 0)
			sleeper(periods[i], 1234u + i);
		nproc++;
	}
	if (fork() == 0)
		pingpong();
	nproc++;
	if (fork() == 0)
		burster();
	nproc++;
	while (nproc-- > 0)
		wait(NULL);
	return 0;
}
