/*-------------------------------------------------------------------------
 *
 * curl_api.h
 *	  libcurl, loaded on the first object-store request.
 *
 * The library is not linked into deltacc.so: a backend that only reads
 * local tables never maps libcurl and the libraries it pulls in (their
 * symbol relocations were most of the cost of loading deltacc).  The
 * first request dlopen()s "libcurl.so.4" (the soname of every libcurl 7.x
 * and 8.x) and looks up the functions below; they stay loaded for the
 * life of the backend.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/storage/curl_api.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_CURL_API_H
#define DELTACC_CURL_API_H

#include <curl/curl.h>

/* The libcurl functions http.c calls, as the library exports them. */
typedef struct CurlApi
{
	CURLcode	(*global_init) (long flags);
	CURL	   *(*easy_init) (void);
	CURLcode	(*easy_setopt) (CURL *easy, CURLoption option,...);
	CURLcode	(*easy_getinfo) (CURL *easy, CURLINFO info,...);
	void		(*easy_cleanup) (CURL *easy);
	const char *(*easy_strerror) (CURLcode code);
	CURLM	   *(*multi_init) (void);
	CURLMcode	(*multi_setopt) (CURLM *multi, CURLMoption option,...);
	CURLMcode	(*multi_add_handle) (CURLM *multi, CURL *easy);
	CURLMcode	(*multi_remove_handle) (CURLM *multi, CURL *easy);
	CURLMcode	(*multi_perform) (CURLM *multi, int *running);
	CURLMcode	(*multi_poll) (CURLM *multi, struct curl_waitfd extra_fds[],
							   unsigned int extra_nfds, int timeout_ms,
							   int *ret);
	CURLMsg    *(*multi_info_read) (CURLM *multi, int *msgs_in_queue);
	const char *(*multi_strerror) (CURLMcode code);
	struct curl_slist *(*slist_append) (struct curl_slist *list,
										const char *string);
	void		(*slist_free_all) (struct curl_slist *list);
} CurlApi;

/*
 * The loaded library's functions (static storage, never freed).  The first
 * call loads it; ERROR (58P01 for the library, 38000 for a function, with
 * the loader's message) when it cannot be found.
 */
extern const CurlApi *curl_api(void);

/* Whether this backend has loaded libcurl (for tests and diagnostics). */
extern bool curl_api_loaded(void);

#endif							/* DELTACC_CURL_API_H */
