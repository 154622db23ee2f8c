/*-------------------------------------------------------------------------
 *
 * curl_api.c
 *	  libcurl, loaded on the first object-store request (see curl_api.h).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/storage/curl_api.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dlfcn.h>

#include "storage/curl_api.h"

#define CURL_SONAME "libcurl.so.4"

static CurlApi api;
static bool api_loaded = false;

/* One function of the library, or ERROR naming it. */
static void *
lookup(void *handle, const char *name)
{
	void	   *fn = dlsym(handle, name);

	if (fn == NULL)
	{
		const char *why = dlerror();

		ereport(ERROR,
				errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
				errmsg("could not find function \"%s\" in library \"%s\"",
					   name, CURL_SONAME),
				why ? errdetail_internal("%s", why) : 0,
				errhint("Object-store tables need libcurl 7.66 or later (Debian package libcurl4)."));
	}
	return fn;
}

const CurlApi *
curl_api(void)
{
	void	   *handle;
	CurlApi		a;

	if (api_loaded)
		return &api;
	handle = dlopen(CURL_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (handle == NULL)
	{
		const char *why = dlerror();

		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_FILE),
				errmsg("could not load library \"%s\"", CURL_SONAME),
				why ? errdetail_internal("%s", why) : 0,
				errhint("Object-store tables need libcurl (Debian package libcurl4)."));
	}
	/* (a half-filled table is never published: a lookup can raise) */
	a.global_init = lookup(handle, "curl_global_init");
	a.easy_init = lookup(handle, "curl_easy_init");
	a.easy_setopt = lookup(handle, "curl_easy_setopt");
	a.easy_getinfo = lookup(handle, "curl_easy_getinfo");
	a.easy_cleanup = lookup(handle, "curl_easy_cleanup");
	a.easy_strerror = lookup(handle, "curl_easy_strerror");
	a.multi_init = lookup(handle, "curl_multi_init");
	a.multi_setopt = lookup(handle, "curl_multi_setopt");
	a.multi_add_handle = lookup(handle, "curl_multi_add_handle");
	a.multi_remove_handle = lookup(handle, "curl_multi_remove_handle");
	a.multi_perform = lookup(handle, "curl_multi_perform");
	a.multi_poll = lookup(handle, "curl_multi_poll");
	a.multi_info_read = lookup(handle, "curl_multi_info_read");
	a.multi_strerror = lookup(handle, "curl_multi_strerror");
	a.slist_append = lookup(handle, "curl_slist_append");
	a.slist_free_all = lookup(handle, "curl_slist_free_all");
	api = a;
	api_loaded = true;
	return &api;
}

bool
curl_api_loaded(void)
{
	return api_loaded;
}
